-- Filetype detection of the repository as a Neovim plugin (see
-- plugin/lreview.lua): editors/vim's own, which stands alone.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
vim.cmd.source(vim.fn.fnameescape(vim.fs.joinpath(root, 'editors', 'vim', 'ftdetect', 'lreview.vim')))
