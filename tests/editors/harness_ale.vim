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

execute 'source ' . fnameescape(expand('<sfile>:p:h') . '/harness_ale_common.vim')

let s:repo = $GEMSTACK_REPO
let s:feature = $GEMSTACK_FEATURE
let s:expected = json_decode($GEMSTACK_EXPECTED)
let s:needle = '"capsule-is-derived-not-authority"'
let s:R = extend(g:gemstack_harness_R, {'files': {}})

function! s:Open(rel) abort
  execute 'edit ' . fnameescape(s:repo . '/' . a:rel)
  let l:buffer = bufnr('')
  let l:want = sort(copy(get(s:expected, a:rel, [])))
  call GemstackHarnessWait('diagnostics ' . a:rel, {-> GemstackHarnessCodes(l:buffer) == l:want})
  let s:R.files[a:rel] = {
  \   'filetype': &filetype,
  \   'diagnostics': map(GemstackHarnessItems(l:buffer), '{"code": get(v:val, "code", ""), "lnum": v:val.lnum, '
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
  call GemstackHarnessWait('hover', {-> bufexists('ALEPreviewWindow') && !empty(join(getbufline('ALEPreviewWindow', 1, '$'), ''))})
  let s:R.hover_lines = bufexists('ALEPreviewWindow') ? getbufline('ALEPreviewWindow', 1, '$') : []
endfunction

function! s:Scenario() abort
  " Show hovers in the preview window (a documented ALE option) so the harness can read them.
  call GemstackHarnessStartVim({'ale_hover_to_preview': 1})
  let s:R.ale_linters = map(copy(ale#linter#Get('markdown')), 'v:val.name')
  let s:R.lsp_config = map(filter(copy(ale#linter#Get('json')), 'v:val.name is# "gemstack"'), 'get(v:val, "lsp_config", {})')
  let l:spec = s:Open(s:feature . '/spec.md')
  call s:Hover(l:spec)
  execute 'buffer ' . l:spec
  call s:Open('cost-ledger.json')
endfunction

call GemstackHarnessRun(function('s:Scenario'))
