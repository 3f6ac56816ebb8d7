" The Vim (not Neovim) side: filetype detection, syntax and ftplugin in
" plain Vim. run.sh runs it with `vim -es` when Vim is installed; results go
" to $LREVIEW_RESULTS in the harness's format.
let s:fixtures = expand('<sfile>:p:h') . '/fixtures/'
let s:lines = []
let s:passed = 0
let s:failed = 0

function! s:Test(name, func) abort
  let v:errors = []
  try
    call call(a:func, [])
  catch
    call add(v:errors, v:exception . ' at ' . v:throwpoint)
  endtry
  if empty(v:errors)
    let s:passed += 1
    call add(s:lines, 'ok   ' . a:name)
  else
    let s:failed += 1
    call add(s:lines, 'FAIL ' . a:name)
    call extend(s:lines, map(copy(v:errors), '"       " . v:val'))
  endif
  silent! %bwipeout!
endfunction

" Innermost syntax group at the first occurrence of {text}, plus {offset}.
function! s:Group(text, offset) abort
  call cursor(1, 1)
  let l:lnum = search('\V' . escape(a:text, '\'), 'cW')
  call assert_true(l:lnum > 0, 'not found: ' . a:text)
  let l:col = stridx(getline(l:lnum), a:text) + 1 + a:offset
  return synIDattr(synID(l:lnum, l:col, 0), 'name')
endfunction

function! s:Detection() abort
  execute 'edit' fnameescape(s:fixtures . 'sample.review.json')
  call assert_equal('lreview', &filetype, 'by name')
  execute 'edit' fnameescape(s:fixtures . 'by-content.json')
  call assert_equal('lreview', &filetype, 'by content')
  execute 'edit' fnameescape(s:fixtures . 'minified.json')
  call assert_equal('lreview', &filetype, 'minified')
  execute 'edit' fnameescape(s:fixtures . 'plain.json')
  call assert_equal('json', &filetype, 'plain JSON')
endfunction

function! s:Syntax() abort
  execute 'edit' fnameescape(s:fixtures . 'sample.review.json')
  call assert_equal('lreviewDiffAdded', s:Group('+    result, err', 0), 'added')
  call assert_equal('lreviewDiffRemoved', s:Group('-    result := calculate', 0), 'removed')
  call assert_equal('lreviewDiffHunk', s:Group('@@ -70,5 +70,6 @@', 0), 'hunk')
  call assert_equal('lreviewDiffContext', s:Group('     ctx := context', 0), 'context')
  call assert_equal('lreviewDiffHeader', s:Group('diff --git a/internal', 0), 'header')
  call assert_equal('lreviewDiffAdded', s:Group('+\tlog.Printf(\"caf\u00e9', 14), 'after escapes')
  call assert_equal('jsonString', s:Group('+ looks like an added line', 0), 'comment body')
endfunction

function! s:Ftplugin() abort
  execute 'edit' fnameescape(s:fixtures . 'sample.review.json')
  call assert_equal([2, 2, 1, ''], [&shiftwidth, &softtabstop, &expandtab, &commentstring])
  call assert_match('shiftwidth<', b:undo_ftplugin)
endfunction

call s:Test('vim: filetype detection by name and content', function('s:Detection'))
call s:Test('vim: diff groups in the patch array', function('s:Syntax'))
call s:Test('vim: ftplugin options', function('s:Ftplugin'))
call add(s:lines, printf('RESULT %d %d', s:passed, s:failed))
call writefile(s:lines, $LREVIEW_RESULTS)
qall!
