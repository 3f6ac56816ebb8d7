" Vim syntax file
" Language: lreview (leanreview review exchange, *.review.json)
"
" JSON highlighting with diff colours overlaid on the lines of the "patch"
" member, so a review reads like a diff even without the language server.

if exists('b:current_syntax')
  finish
endif

runtime! syntax/json.vim
unlet! b:current_syntax

" A JSON string body: anything but a quote or backslash, or an escape pair.
" Escapes stay part of the diff line so they keep its colour.
let s:body = '\%([^"\\]\|\\.\)*'
" Starts of git's file and extended header lines, other than '---'/'+++'.
let s:headers = '\%(diff \|index \|old mode \|new mode \|deleted file mode \|new file mode \|'
      \ . 'similarity index \|dissimilarity index \|rename from \|rename to \|copy from \|copy to \|'
      \ . 'Binary files \|GIT binary patch\)'

" Array form: one diff line per element. The region consumes every element,
" so the ']' that ends it is never one inside a string.
syntax region lreviewPatch matchgroup=jsonBraces
      \ start=/\%("patch"\s*:\s*\)\@<=\[/ end=/]/
      \ contains=@lreviewElement,jsonNoise fold

syntax cluster lreviewElement contains=lreviewPatchString,lreviewDiffContext,
      \lreviewDiffAdded,lreviewDiffRemoved,lreviewDiffNoNewline,lreviewDiffHeader,
      \lreviewDiffHunkLine

" Each element is a region opened by a quote and told apart by what follows
" it. When several start at the same quote, the one defined last wins, so
" the generic string comes first and the most specific ones last.
syntax region lreviewPatchString contained oneline matchgroup=jsonQuote
      \ start=/"/ skip=/\\./ end=/"/
syntax region lreviewDiffContext contained oneline matchgroup=jsonQuote
      \ start=/"\ze / skip=/\\./ end=/"/
syntax region lreviewDiffAdded contained oneline matchgroup=jsonQuote
      \ start=/"\ze+/ skip=/\\./ end=/"/
syntax region lreviewDiffRemoved contained oneline matchgroup=jsonQuote
      \ start=/"\ze-/ skip=/\\./ end=/"/
" A JSON-escaped '\ No newline at end of file' (the text is localised).
syntax region lreviewDiffNoNewline contained oneline matchgroup=jsonQuote
      \ start=/"\ze\\\\ / skip=/\\./ end=/"/
execute 'syntax region lreviewDiffHeader contained oneline matchgroup=jsonQuote'
      \ 'start=/"\ze' . s:headers . '/ skip=/\\./ end=/"/'
" '--- ' is a header only when a '+++ ' element follows; otherwise it is a
" removed line that starts with '--' (an SQL or Lua comment, say). '+++ ' is
" always a header: an added line starting with '++ ' is too rare to be worth
" a look back across lines.
execute 'syntax region lreviewDiffHeader contained oneline matchgroup=jsonQuote'
      \ 'start=/"\ze--- ' . s:body . '"\_s*,\_s*"+++ /'
      \ 'skip=/\\./ end=/"/'
syntax region lreviewDiffHeader contained oneline matchgroup=jsonQuote
      \ start=/"\ze+++ / skip=/\\./ end=/"/
" A hunk header: only the '@@ -a,b +c,d @@' part is the hunk; the section
" text after it (often a function signature) keeps the line's own colour.
syntax region lreviewDiffHunkLine contained oneline matchgroup=jsonQuote
      \ start=/"\ze@@ / skip=/\\./ end=/"/ contains=lreviewDiffHunk
syntax match lreviewDiffHunk contained
      \ /"\@1<=@@ -\d\+\%(,\d\+\)\= +\d\+\%(,\d\+\)\= @@/

" Single-string form: one string with embedded \n. Every embedded line is a
" segment that runs up to the next \n, so a segment only ever starts at the
" beginning of a diff line. An escaped backslash followed by 'n' is consumed
" as '\\' and never taken for a line break.
let s:seg = '\%([^"\\]\|\\[^n]\)'
syntax region lreviewPatchText matchgroup=jsonQuote
      \ start=/\%("patch"\s*:\s*\)\@<="/ skip=/\\./ end=/"/
      \ contains=@lreviewSegment
syntax cluster lreviewSegment contains=lreviewSegNewline,lreviewSegOther,
      \lreviewSegContext,lreviewSegAdded,lreviewSegRemoved,lreviewSegNoNewline,
      \lreviewSegHeader,lreviewSegHunkLine
syntax match lreviewSegNewline contained /\\n/
execute 'syntax match lreviewSegOther contained /' . s:seg . '\+/'
execute 'syntax match lreviewSegContext contained / ' . s:seg . '*/'
execute 'syntax match lreviewSegAdded contained /+' . s:seg . '*/'
execute 'syntax match lreviewSegRemoved contained /-' . s:seg . '*/'
execute 'syntax match lreviewSegNoNewline contained /\\\\ ' . s:seg . '*/'
execute 'syntax match lreviewSegHeader contained /' . s:headers . s:seg . '*/'
execute 'syntax match lreviewSegHeader contained /--- ' . s:seg . '*\ze\\n+++ /'
execute 'syntax match lreviewSegHeader contained /+++ ' . s:seg . '*/'
execute 'syntax match lreviewSegHunkLine contained /@@ ' . s:seg . '*/ contains=lreviewSegHunk'
syntax match lreviewSegHunk contained
      \ /\%(\\n\|"\)\@2<=@@ -\d\+\%(,\d\+\)\= +\d\+\%(,\d\+\)\= @@/

unlet s:body s:headers s:seg

" Patch regions span thousands of lines, too many to parse from the top on
" every jump. Sync on the lines themselves instead: a line holding only a
" string is an element of the patch array (no other member of the format is
" an array of strings on separate lines), a line holding only ']' or '],'
" closes an array and returns to plain JSON.
syntax sync maxlines=300
syntax sync match lreviewSyncPatch grouphere lreviewPatch /^\s*"\%([^"\\]\|\\.\)*",\=\s*$/
syntax sync match lreviewSyncPatch grouphere lreviewPatch /"patch"\s*:\s*\[/
syntax sync match lreviewSyncJSON grouphere NONE /^\s*\],\=\s*$/

" Neovim 0.10 and recent Vim have Added/Removed; older Vim falls back to the
" vimdiff colours.
execute 'highlight default link lreviewDiffAdded' hlexists('Added') ? 'Added' : 'DiffAdd'
execute 'highlight default link lreviewDiffRemoved' hlexists('Removed') ? 'Removed' : 'DiffDelete'
highlight default link lreviewDiffHunk Title
highlight default link lreviewDiffHeader PreProc
highlight default link lreviewDiffNoNewline Comment
" Context lines and hunk section text are left without attributes, so they
" show as Normal text rather than as green JSON strings next to green added
" lines. Link them (e.g. to Comment) to dim them.
highlight default link lreviewPatchString jsonString
highlight default link lreviewSegOther lreviewPatchString
highlight default link lreviewSegAdded lreviewDiffAdded
highlight default link lreviewSegRemoved lreviewDiffRemoved
highlight default link lreviewSegContext lreviewDiffContext
highlight default link lreviewSegNoNewline lreviewDiffNoNewline
highlight default link lreviewSegHeader lreviewDiffHeader
highlight default link lreviewSegHunkLine lreviewDiffHunkLine
highlight default link lreviewSegHunk lreviewDiffHunk
highlight default link lreviewSegNewline jsonEscape

let b:current_syntax = 'lreview'
