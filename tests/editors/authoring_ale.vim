" Vim (batch, `vim -es`) with ALE 3.3: the authoring features ALE has, against gemstack-lsp.
"
"   GEMSTACK_SNIPPET=/tmp/gemstack.vim GEMSTACK_REPO=/tmp/demo GEMSTACK_RESULT=/tmp/out.json \
"     vim -Nu NONE -i NONE -es -S tests/editors/authoring_ale.vim
"
" Sources the documented linter definition, opens specs/009's spec.md (not frozen: the test
" clears the phase hashes), waits for ALE's diagnostics, then
" - :ALECodeAction on the stale-capsule finding, "Regenerate the context capsule" chosen by its
"   number at ALE's prompt: the finding goes;
" - completion: ALE's omnifunc (ale#completion#OmniFunc) typed in Insert mode with <C-x><C-o>
"   in a new gemstack-contracts block, first after `"type": "` (the items ALE got), then after
"   `"type": "IDEN` (the line as Vim left it); the buffer is restored afterwards;
" - :ALERename on a contract id, the new name typed at ALE's prompt, then :wall.
" What it saw goes to GEMSTACK_RESULT as JSON. Exits 0 when every step finished, 1 when a
" wait timed out, 2 when the harness failed.

execute 'source ' . fnameescape(expand('<sfile>:p:h') . '/harness_ale_common.vim')

let s:repo = $GEMSTACK_REPO
let s:rename_from = 'capsule-offline-deterministic'
let s:rename_to = 'capsule-offline-repeatable'
let s:R = extend(g:gemstack_harness_R, {'prompts': []})

" The user's answer at ALE's prompt (ale#util#Input wraps input(), which batch Vim cannot
" type into); the prompt is kept.
function! s:Answer(prompt, default) abort
  call add(s:R.prompts, [a:prompt, a:default])
  if a:prompt =~# '^Code Fixes:'
    " ALE lists the code actions numbered; the user types the number of Regenerate's.
    let l:chosen = matchstr(a:prompt, '\v(^|\n)\zs\d+\ze\) Regenerate the context capsule')
    return l:chosen
  endif
  return s:rename_to
endfunction

function! s:Complete(buffer, row, text) abort
  call setline(a:row, a:text)
  call cursor(a:row, len(a:text))
  unlet! b:ale_completion_result
  " `A` then <C-x><C-o>: ALE's omnifunc asks the server and waits for its answer.
  execute "normal! A\<C-x>\<C-o>\<Esc>"
  return {'items': map(copy(get(b:, 'ale_completion_result', [])), 'v:val.word'), 'line': getline(a:row)}
endfunction

function! s:Scenario() abort
  call GemstackHarnessStartVim({})
  execute 'edit ' . fnameescape(s:repo . '/specs/009-context-capsule/spec.md')
  let l:buffer = bufnr('')
  call GemstackHarnessWait('diagnostics', {-> index(GemstackHarnessCodes(l:buffer), 'CONTEXT_CAPSULE_STALE') >= 0})
  let s:R.codes_before = GemstackHarnessCodes(l:buffer)
  function! ale#util#Input(prompt, default, ...) abort
    return s:Answer(a:prompt, a:default)
  endfunction

  " :ALECodeAction on the first line, where the stale-capsule finding is; Regenerate chosen.
  let l:capsule = s:repo . '/specs/009-context-capsule/context-capsule.json'
  let s:R.capsule_before = join(readfile(l:capsule, 'b'), "\n")
  call cursor(1, 1)
  ALECodeAction
  call GemstackHarnessWait('regenerated', {-> index(GemstackHarnessCodes(l:buffer), 'CONTEXT_CAPSULE_STALE') < 0})
  let s:R.codes_after = GemstackHarnessCodes(l:buffer)
  let s:R.capsule_after = join(readfile(l:capsule, 'b'), "\n")

  " Completion, the omnifunc set as ALE's documentation says.
  setlocal omnifunc=ale#completion#OmniFunc completeopt=menu
  let l:before = getline(1, '$')
  call append('$', ['```gemstack-contracts', '['])
  let l:row = line('$') + 1
  let s:R.completion = [
  \   s:Complete(l:buffer, l:row, '  {"id": "x", "type": "'),
  \   s:Complete(l:buffer, l:row, '  {"id": "x", "type": "IDEN'),
  \]
  silent %delete _
  call setline(1, l:before)
  set nomodified

  " :ALERename at a contract id.
  call cursor(1, 1)
  let l:found = search('\V"' . s:rename_from . '"', 'cW')
  if l:found == 0
    throw 'harness: ' . s:rename_from . ' is not in spec.md'
  endif
  call cursor(l:found, col('.') + 4)
  let s:R.rename_at = [line('.'), col('.')]
  ALERename
  call GemstackHarnessWait('rename', {-> search('\V' . s:rename_to, 'nw') > 0})
  let s:R.modified = map(filter(getbufinfo({'buflisted': 1}), 'v:val.changed'), 'fnamemodify(v:val.name, ":.")')
  wall
  let s:R.capsule_after_rename = join(readfile(l:capsule, 'b'), "\n")

  " :ALERename on a contract of the frozen 008 spec: what ALE says, and the buffer after.
  execute 'edit ' . fnameescape(s:repo . '/specs/008-cost-provider-safety-gates/spec.md')
  let s:rename_to = 'upgrade-c-states'
  call cursor(1, 1)
  call cursor(search('\V"upgrade-c-cost-states"', 'cW'), col('.') + 4)
  messages clear
  ALERename
  call GemstackHarnessWait('frozen rename answer', {-> execute('messages') =~# 'rename'})
  let s:R.frozen_messages = split(execute('messages'), "\n")
  let s:R.frozen_modified = &modified ? v:true : v:false
endfunction

call GemstackHarnessRun(function('s:Scenario'))
