-- The plugin's build step: installs the lreview-lsp server with Go when Go
-- is there, else says where to get a release binary. lazy.nvim runs this
-- file after installing or updating the plugin; with vim.pack, run it from
-- a PackChanged autocommand (README); :LreviewInstallServer runs it too.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
dofile(vim.fs.joinpath(root, 'editors', 'vim', 'lua', 'lreview', 'build.lua')).run(root)
