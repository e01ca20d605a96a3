" Vim (batch, `vim -es`) with ALE driving gemstack-lsp, set up as docs/editors.md says.
"
"   GEMSTACK_SNIPPET=/tmp/gemstack.vim GEMSTACK_REPO=/tmp/demo GEMSTACK_FEATURE=specs/009-context-capsule \
"   GEMSTACK_EXPECTED='{"specs/009-context-capsule/spec.md": ["CONTEXT_CAPSULE_STALE"]}' \
"   GEMSTACK_RESULT=/tmp/out.json  vim -Nu NONE -i NONE -es -S tests/editors/harness_ale.vim
"
" Sources the documented linter definition (GEMSTACK_SNIPPET, extracted by the test), opens
" the feature's spec.md and the repository's cost-ledger.json, waits for ALE's diagnostics,
" asks for a hover on a contract id, and writes what it saw as JSON to GEMSTACK_RESULT.
" Exits 0 when every step finished, 1 when a wait timed out, 2 when the harness failed.

let s:repo = $GEMSTACK_REPO
let s:feature = $GEMSTACK_FEATURE
let s:expected = json_decode($GEMSTACK_EXPECTED)
let s:timeout_ms = str2nr(empty($GEMSTACK_TIMEOUT_S) ? '20' : $GEMSTACK_TIMEOUT_S) * 1000
let s:needle = '"capsule-is-derived-not-authority"'
let s:t0 = reltime()
let s:R = {'steps': [], 'timeouts': [], 'files': {}}

function! s:Ms() abort
  return float2nr(reltimefloat(reltime(s:t0)) * 1000)
endfunction

" Let timers, jobs and channels run (they do while Vim sleeps) until the condition holds.
function! s:Wait(name, Condition) abort
  let l:started = s:Ms()
  let l:ok = 0
  while s:Ms() - l:started < s:timeout_ms
    if a:Condition()
      let l:ok = 1
      break
    endif
    sleep 20m
  endwhile
  call add(s:R.steps, {'name': a:name, 'ok': l:ok ? v:true : v:false, 'ms': s:Ms() - l:started})
  if !l:ok
    call add(s:R.timeouts, a:name)
  endif
  return l:ok
endfunction

function! s:Items(buffer) abort
  return filter(copy(ale#engine#GetLoclist(a:buffer)), 'get(v:val, "linter_name", "") is# "gemstack"')
endfunction

function! s:Codes(buffer) abort
  return sort(uniq(sort(map(s:Items(a:buffer), 'get(v:val, "code", "")'))))
endfunction

function! s:Open(rel) abort
  execute 'edit ' . fnameescape(s:repo . '/' . a:rel)
  let l:buffer = bufnr('')
  let l:want = sort(copy(get(s:expected, a:rel, [])))
  call s:Wait('diagnostics ' . a:rel, {-> s:Codes(l:buffer) == l:want})
  let s:R.files[a:rel] = {
  \   'filetype': &filetype,
  \   'diagnostics': map(s:Items(l:buffer), '{"code": get(v:val, "code", ""), "lnum": v:val.lnum, '
  \       . '"col": v:val.col, "type": v:val.type, "text": v:val.text}'),
  \}
  return l:buffer
endfunction

function! s:Hover(buffer) abort
  call cursor(1, 1)
  let l:found = search('\V' . escape(s:needle, '\'), 'cW')
  if l:found == 0
    throw 'harness: ' . s:needle . ' is not in spec.md'
  endif
  call cursor(l:found, col('.') + 5)
  let s:R.hover_position = [line('.'), col('.')]
  call ale#hover#Show(a:buffer, line('.'), col('.'), {})
  call s:Wait('hover', {-> bufexists('ALEPreviewWindow') && !empty(join(getbufline('ALEPreviewWindow', 1, '$'), ''))})
  let s:R.hover_lines = bufexists('ALEPreviewWindow') ? getbufline('ALEPreviewWindow', 1, '$') : []
endfunction

function! s:Scenario() abort
  set nocompatible hidden noswapfile nobackup nowritebackup
  filetype on
  " What `packadd! ale` in a vimrc gives once Vim has started: ALE loaded.
  packadd ale
  " Show hovers in the preview window (a documented ALE option) so the harness can read them.
  let g:ale_hover_to_preview = 1
  execute 'source ' . fnameescape($GEMSTACK_SNIPPET)
  let s:R.vim = v:version
  let s:R.ale_linters = map(copy(ale#linter#Get('markdown')), 'v:val.name')
  let s:R.lsp_config = map(filter(copy(ale#linter#Get('json')), 'v:val.name is# "gemstack"'), 'get(v:val, "lsp_config", {})')
  let l:spec = s:Open(s:feature . '/spec.md')
  call s:Hover(l:spec)
  execute 'buffer ' . l:spec
  call s:Open('cost-ledger.json')
endfunction

let s:code = 0
try
  call s:Scenario()
  if !empty(s:R.timeouts)
    let s:code = 1
  endif
catch
  let s:R.error = v:exception . ' at ' . v:throwpoint
  let s:code = 2
endtry
let s:R.total_ms = s:Ms()
call writefile([json_encode(s:R)], $GEMSTACK_RESULT)
if s:code == 0
  qall!
endif
execute 'cquit ' . s:code
