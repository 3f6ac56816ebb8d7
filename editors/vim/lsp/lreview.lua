-- Server configuration for Neovim 0.11+: vim.lsp.enable('lreview').
-- Override with vim.lsp.config('lreview', { settings = { lreview = { ... } } }).
-- The automatic setup of plugin/lreview.lua notices vim.lsp.enable('lreview')
-- and does not start a second client.
---@type vim.lsp.Config
return {
  cmd = { 'lreview-lsp', '--stdio' },
  filetypes = { 'lreview' },
  root_markers = { '.git' },
  init_options = {},
  -- Sent by Neovim on workspace/didChangeConfiguration; the server reads
  -- the "lreview" section (it never requests workspace/configuration).
  settings = { lreview = {} },
  -- An empty body an action wrote ("Reply to c1", "Comment on RIGHT 72")
  -- opens as Markdown, written back on :w (lua/lreview/body.lua).
  commands = {
    ['lreview.showBody'] = function(command, ctx)
      require('lreview.body').show_body_command(command, ctx)
    end,
  },
  -- The server takes the same settings at initialize, so users set them
  -- once under settings.lreview; explicit init_options still win.
  before_init = function(params, config)
    local settings = config.settings and config.settings.lreview or {}
    params.initializationOptions =
      vim.tbl_deep_extend('force', vim.deepcopy(settings), config.init_options or {})
  end,
}
