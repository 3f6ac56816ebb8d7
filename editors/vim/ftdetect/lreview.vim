" Filetype detection for review-exchange files: by name (*.review.json) and
" by content (a *.json file whose first key is "leanreview_review"). Only the
" first lines are read, each cut short, so a minified file on one huge line
" is cheap. Self-contained: plugin managers source this file before the rest
" of the plugin is on 'runtimepath'.

if has('nvim-0.8')
  " Neovim detects through vim.filetype, so vim.filetype.match() agrees.
  lua << trim EOF
    local function is_review(bufnr)
      local head = {}
      for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 10, false)) do
        head[#head + 1] = line:sub(1, 200)
      end
      local text = table.concat(head, ' '):gsub('^\239\187\191', '') -- UTF-8 BOM
      return text:find('^%s*{%s*"leanreview_review"%s*:') ~= nil
    end
    vim.filetype.add({
      pattern = {
        ['.*%.review%.json'] = 'lreview',
        -- Runs before the json extension rule; nil falls through to it.
        ['.*%.json'] = function(_, bufnr)
          if bufnr and is_review(bufnr) then
            return 'lreview'
          end
        end,
      },
    })
  EOF
  finish
endif

function! s:IsReview() abort
  let l:head = join(map(getline(1, 10), 'strpart(v:val, 0, 200)'), ' ')
  return l:head =~# '\m^\%ufeff\=\s*{\s*"leanreview_review"\s*:'
endfunction

" 'set filetype' rather than 'setfiletype': *.json has already been set to
" json by the time these autocommands run.
autocmd BufNewFile,BufRead *.review.json set filetype=lreview
autocmd BufRead *.json if &filetype !=# 'lreview' && s:IsReview() | set filetype=lreview | endif
