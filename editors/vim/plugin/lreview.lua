-- Neovim side of the lreview plugin: highlight links for the server's
-- semantic tokens, and automatic setup of the language server.
--
-- Automatic setup: on the first lreview buffer, require('lreview').setup()
-- runs with defaults, unless the user has called setup() themselves, set
-- vim.g.lreview_auto_setup = false, or enabled the server with Neovim
-- 0.11's vim.lsp.enable('lreview'). The check happens at that moment, not
-- when this file loads, so the order of the user's configuration does not
-- matter, and the server is only looked for once a review file opens.
if vim.g.loaded_lreview or vim.fn.has('nvim-0.10') == 0 then
  return
end
vim.g.loaded_lreview = true

require('lreview').define_highlights()

vim.api.nvim_create_autocmd('ColorScheme', {
  group = vim.api.nvim_create_augroup('lreview.highlights', { clear = true }),
  desc = 'Restore lreview semantic token links',
  callback = function()
    require('lreview').define_highlights()
  end,
})

-- Its own group: setup() may already have run (from init.lua, before plugin
-- files load), and its autocommands must survive this file.
vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('lreview.auto', { clear = true }),
  pattern = 'lreview',
  desc = 'Set up lreview-lsp with defaults',
  callback = function()
    require('lreview').auto_setup()
  end,
})

-- gd in a review goes to the server's definition — from a diff line, the
-- source in the working tree — as in most LSP setups; a gd the user mapped
-- stays theirs. Whichever way the server started (setup() or
-- vim.lsp.enable()), it attaches through LspAttach.
vim.api.nvim_create_autocmd('LspAttach', {
  group = vim.api.nvim_create_augroup('lreview.keys', { clear = true }),
  desc = 'Map gd to the lreview server definition; complete whole items',
  callback = function(ev)
    local client = vim.lsp.get_client_by_id(ev.data.client_id)
    if client and client.name == 'lreview' and vim.fn.maparg('gd', 'n') == '' then
      vim.keymap.set('n', 'gd', vim.lsp.buf.definition, { buffer = ev.buf, desc = 'lreview: go to definition' })
    end
    -- Completion items a word cannot hold (lua/lreview/complete.lua).
    if client and client.name == 'lreview' then
      require('lreview.complete').attach(ev.buf)
      -- The body at the cursor as Markdown (lua/lreview/body.lua).
      vim.api.nvim_buf_create_user_command(ev.buf, 'LreviewBody', function()
        require('lreview.body').edit(ev.buf)
      end, { desc = 'lreview: edit the body at the cursor as Markdown; :w writes it back' })
    end
  end,
})

-- A source file in a repository holding a review starts the setup too,
-- so that the reviews' comments show where the code is edited
-- (lua/lreview/sources.lua attaches it; the server knows which files).
vim.api.nvim_create_autocmd('BufReadPost', {
  group = vim.api.nvim_create_augroup('lreview.auto.sources', { clear = true }),
  desc = 'Set up lreview-lsp for a reviewed source file',
  callback = function(args)
    local lreview = require('lreview')
    if not lreview.is_configured() and require('lreview.sources').wants_server(args.buf) then
      lreview.auto_setup()
    end
  end,
})

-- Installs the server as the plugin managers' build step does (build.lua):
-- with Go from the clone the plugin was loaded from, else says where the
-- release binaries are.
vim.api.nvim_create_user_command('LreviewInstallServer', function()
  local root = require('lreview').checkout_dir()
  if not root then
    vim.notify(
      'lreview: this plugin was not loaded from a clone of lreview-lsp; install the server with '
        .. require('lreview').published_install_command
        .. ' or from '
        .. require('lreview').releases,
      vim.log.levels.WARN
    )
    return
  end
  require('lreview.build').run(root)
end, { desc = 'lreview: install the lreview-lsp server' })
