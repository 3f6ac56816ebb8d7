" Indent file for lreview: review exchange files are JSON.

if exists('b:did_indent')
  finish
endif
runtime! indent/json.vim
let b:did_indent = 1
