" Filetype plugin for lreview (review exchange files): JSON editing with the
" two-space indentation that leanreview and `lreview-lsp fmt` write.

if exists('b:did_ftplugin')
  finish
endif

" Take JSON's settings (formatoptions, no comments), then adjust.
runtime! ftplugin/json.vim ftplugin/json_*.vim ftplugin/json/*.vim
let b:did_ftplugin = 1

setlocal shiftwidth=2 softtabstop=2 expandtab
" JSON has no comments; an empty value makes commenting operators refuse
" rather than insert something that breaks the document.
setlocal comments= commentstring=

let s:undo = 'setlocal shiftwidth< softtabstop< expandtab< comments< commentstring<'
let b:undo_ftplugin = exists('b:undo_ftplugin') && !empty(b:undo_ftplugin)
      \ ? b:undo_ftplugin . ' | ' . s:undo : s:undo
unlet s:undo
