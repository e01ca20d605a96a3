" What the Vim (ALE) batch harnesses share, sourced first by harness_ale.vim and
" authoring_ale.vim (next to this file):
"
"   execute 'source ' . fnameescape(expand('<sfile>:p:h') . '/harness_ale_common.vim')
"
" g:gemstack_harness_R, the result written as JSON to $GEMSTACK_RESULT (a harness keeps it as
" s:R and adds its own keys); timed waits recorded as steps ($GEMSTACK_TIMEOUT_S); ALE's
" gemstack items and codes; Vim set up with ALE and the documented linter definition
" ($GEMSTACK_SNIPPET); and the tail that runs a scenario: exit 0 when every step finished, 1
" when a wait timed out, 2 when the harness failed.

let s:timeout_ms = str2nr(empty($GEMSTACK_TIMEOUT_S) ? '20' : $GEMSTACK_TIMEOUT_S) * 1000
let s:t0 = reltime()
let g:gemstack_harness_R = {'steps': [], 'timeouts': []}
let s:R = g:gemstack_harness_R

function! GemstackHarnessMs() abort
  return float2nr(reltimefloat(reltime(s:t0)) * 1000)
endfunction

" Let timers, jobs and channels run (they do while Vim sleeps) until the condition holds.
function! GemstackHarnessWait(name, Condition) abort
  let l:started = GemstackHarnessMs()
  let l:ok = 0
  while GemstackHarnessMs() - l:started < s:timeout_ms
    if a:Condition()
      let l:ok = 1
      break
    endif
    sleep 20m
  endwhile
  call add(s:R.steps, {'name': a:name, 'ok': l:ok ? v:true : v:false, 'ms': GemstackHarnessMs() - l:started})
  if !l:ok
    call add(s:R.timeouts, a:name)
  endif
  return l:ok
endfunction

" ALE's location list items of the gemstack linter in the buffer.
function! GemstackHarnessItems(buffer) abort
  return filter(copy(ale#engine#GetLoclist(a:buffer)), 'get(v:val, "linter_name", "") is# "gemstack"')
endfunction

" Their codes, sorted, once each.
function! GemstackHarnessCodes(buffer) abort
  return sort(uniq(sort(map(GemstackHarnessItems(a:buffer), 'get(v:val, "code", "")'))))
endfunction

" Vim as the documentation sets it up: ALE loaded (what `packadd! ale` in a vimrc gives once
" Vim has started), the `globals` set (ALE's options), then the linter definition sourced.
function! GemstackHarnessStartVim(globals) abort
  set nocompatible hidden noswapfile nobackup nowritebackup
  filetype on
  packadd ale
  call extend(g:, a:globals)
  execute 'source ' . fnameescape($GEMSTACK_SNIPPET)
  let s:R.vim = v:version
endfunction

" Run the scenario, write the results and quit with the code the test reads.
function! GemstackHarnessRun(Scenario) abort
  let l:code = 0
  try
    call a:Scenario()
    if !empty(s:R.timeouts)
      let l:code = 1
    endif
  catch
    let s:R.error = v:exception . ' at ' . v:throwpoint
    let l:code = 2
  endtry
  let s:R.total_ms = GemstackHarnessMs()
  call writefile([json_encode(s:R)], $GEMSTACK_RESULT)
  if l:code == 0
    qall!
  endif
  execute 'cquit ' . l:code
endfunction
