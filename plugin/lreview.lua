-- The repository as a Neovim plugin, for plugin managers that install a
-- whole repository (vim.pack.add, lazy.nvim): the plugin itself lives in
-- editors/vim. This puts that directory on 'runtimepath' (its lua/, lsp/,
-- ftplugin/, syntax/, indent/ and doc/), makes its help tags once, and
-- loads its plugin file. Loading editors/vim directly (a checkout, Vim's
-- packages) never reads this file.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
local dir = vim.fs.joinpath(root, 'editors', 'vim')
if not vim.tbl_contains(vim.opt.runtimepath:get(), dir) then
  vim.opt.runtimepath:append(dir)
end
local doc = vim.fs.joinpath(dir, 'doc')
if vim.fn.filereadable(vim.fs.joinpath(doc, 'tags')) == 0 and vim.fn.filewritable(doc) == 2 then
  pcall(vim.cmd.helptags, vim.fn.fnameescape(doc))
end
vim.cmd.source(vim.fn.fnameescape(vim.fs.joinpath(dir, 'plugin', 'lreview.lua')))
