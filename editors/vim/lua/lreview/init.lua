-- Neovim client for lreview-lsp, the language server for review exchange
-- files (*.review.json). Requires Neovim 0.10.
local M = {}

--- How to install the server: from a checkout of the repository (what
--- works today, offline), and from the module proxy once the module is
--- published. The plugin itself usually lives in such a checkout
--- (editors/vim), so install_steps() names it.
M.install_command = 'go install ./cmd/lreview-lsp'
M.published_install_command = 'go install github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest'
M.go_version = '1.26'
M.releases = 'https://github.com/leanreview/lreview-lsp/releases'

--- The checkout this plugin was loaded from: the directory two levels up
--- from editors/vim when it holds the server's go.mod, else nil.
---@return string?
function M.checkout_dir()
  local src = debug.getinfo(1, 'S').source
  if src:sub(1, 1) ~= '@' then
    return nil
  end
  -- <checkout>/editors/vim/lua/lreview/init.lua, through the symbolic link
  -- a pack/*/start entry usually is.
  local file = vim.uv.fs_realpath(src:sub(2)) or src:sub(2)
  local dir = vim.fn.fnamemodify(file, ':p:h:h:h:h:h')
  local gomod = vim.fs.joinpath(dir, 'go.mod')
  if vim.fn.filereadable(gomod) == 0 then
    return nil
  end
  local first = vim.fn.readfile(gomod, '', 1)[1] or ''
  if first ~= 'module github.com/leanreview/lreview-lsp' then
    return nil
  end
  return dir
end

--- The lines telling how to install the server, checkout first.
---@return string[]
function M.install_steps()
  local checkout = M.checkout_dir()
  local from = ''
  if checkout then
    local shown = vim.fn.fnamemodify(checkout, ':~')
    -- `~` must stay unquoted for the shell to expand it.
    if shown:find('[^%w/._~+-]') then
      shown = vim.fn.shellescape(checkout)
    end
    from = 'cd ' .. shown .. ' && '
  end
  return {
    ('Install it from a checkout of lreview-lsp (Go %s or newer):'):format(M.go_version),
    '  ' .. from .. M.install_command,
    'or, once the module is published:',
    '  ' .. M.published_install_command,
    'or, without Go, a release binary for your system:',
    '  ' .. M.releases,
  }
end

--- Highlight group for each semantic token type of the server's legend.
--- Context lines link to @none, which adds nothing: the syntax colour below
--- shows, and the syntax file leaves context lines as plain text.
M.token_links = {
  diffHeader = 'PreProc',
  diffHunk = 'Title',
  diffAdded = 'Added',
  diffRemoved = 'Removed',
  diffContext = '@none',
  diffNoNewline = 'Comment',
}

---@class lreview.Options
---@field cmd? string|string[] server command; default: lreview-lsp found on PATH
---@field settings? table server settings, e.g. { author = "me", diagnostics = { disabled = { "unknown-field" } } }
---@field on_attach? fun(client: vim.lsp.Client, bufnr: integer)
---@field capabilities? table client capabilities (e.g. from a completion plugin)

---@type lreview.Options
local options = { settings = {} }
local configured = false
-- The last problem reported, so each distinct problem is reported once.
local last_warning

--- Links the semantic token groups; `default` lets colorschemes and users
--- override them. Called again on :colorscheme, which clears all links.
function M.define_highlights()
  for token, target in pairs(M.token_links) do
    vim.api.nvim_set_hl(0, '@lsp.type.' .. token .. '.lreview', { link = target, default = true })
  end
end

--- Directories where `go install` puts binaries, which are often missing
--- from the PATH an editor is started with.
local function go_bin_dirs()
  local dirs = {}
  if vim.env.GOBIN and vim.env.GOBIN ~= '' then
    table.insert(dirs, vim.env.GOBIN)
  end
  local gopath = vim.env.GOPATH
  if gopath and gopath ~= '' then
    local sep = vim.fn.has('win32') == 1 and ';' or ':'
    table.insert(dirs, vim.fs.joinpath(vim.split(gopath, sep, { plain = true })[1], 'bin'))
  else
    table.insert(dirs, vim.fs.joinpath(vim.uv.os_homedir(), 'go', 'bin'))
  end
  return dirs
end

--- Resolves the server command: the user's `cmd` as given, else
--- `lreview-lsp --stdio` from PATH, else from where `go install` puts it.
--- `--stdio` is explicit, as the other editors pass it.
---@param cmd? string|string[] defaults to the configured `cmd`
---@return string[]? cmd the command with its executable resolved to a path
---@return string? err why there is no usable command
---@return string? source where the executable was found, in words
function M.server_cmd(cmd)
  cmd = cmd or options.cmd
  if cmd then
    cmd = type(cmd) == 'string' and { cmd } or vim.deepcopy(cmd)
    local exe = vim.fn.exepath(vim.fn.expand(cmd[1]))
    if exe == '' then
      return nil, ('the server command `%s` (setup `cmd`) is not executable.'):format(cmd[1])
    end
    cmd[1] = exe
    return cmd, nil, "setup's cmd"
  end
  local exe = vim.fn.exepath('lreview-lsp')
  if exe ~= '' then
    return { exe, '--stdio' }, nil, 'found on PATH'
  end
  local dirs = go_bin_dirs()
  for _, dir in ipairs(dirs) do
    local candidate = vim.fs.joinpath(dir, 'lreview-lsp')
    if vim.fn.executable(candidate) == 1 then
      return { candidate, '--stdio' }, nil, 'found in ' .. vim.fn.fnamemodify(dir, ':~') .. ', where go install puts it'
    end
  end
  local shown = vim.tbl_map(function(dir)
    return vim.fn.fnamemodify(dir, ':~')
  end, dirs)
  return nil,
    ('the language server `lreview-lsp` was not found on PATH (nor in %s).'):format(table.concat(shown, ', '))
end

--- The warning shown when the server cannot be started: what is wrong and
--- how to fix it, without a stack trace.
---@param err string
---@return string
function M.missing_message(err)
  local lines = { 'lreview: ' .. err }
  vim.list_extend(lines, M.install_steps())
  table.insert(lines, "or set `cmd` in require('lreview').setup{}. Diff highlighting works without it.")
  return table.concat(lines, '\n')
end

local function warn_once(err)
  if err == last_warning then
    return
  end
  last_warning = err
  vim.notify(M.missing_message(err), vim.log.levels.WARN, { title = 'lreview' })
end

--- The workspace root: the nearest directory holding .git, else the file's
--- own directory, else the current directory for unnamed buffers.
---@param bufnr integer
---@return string
function M.root_dir(bufnr)
  local root = vim.fs.root(bufnr, '.git')
  if root then
    return root
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return vim.fn.getcwd()
  end
  return vim.fs.dirname(vim.fs.normalize(name))
end

--- Starts the server for a buffer, or attaches the buffer to the running
--- one with the same root. Returns the client id, or nil (after warning
--- once) when the server is not installed.
---@param bufnr? integer
---@return integer?
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  -- Only real files: not help, terminal, or fugitive-style scratch views.
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local attached = vim.lsp.get_clients({ bufnr = bufnr, name = 'lreview' })
  if #attached > 0 then
    return attached[1].id
  end
  local cmd, err = M.server_cmd()
  if not cmd then
    warn_once(err)
    return nil
  end
  local settings = vim.deepcopy(options.settings or {})
  return vim.lsp.start({
    name = 'lreview',
    cmd = cmd,
    root_dir = M.root_dir(bufnr),
    -- The server reads the same shape at initialize and, under "lreview",
    -- from workspace/didChangeConfiguration, which Neovim sends with
    -- `settings` (the server never requests workspace/configuration).
    init_options = settings,
    settings = { lreview = settings },
    capabilities = options.capabilities,
    on_attach = options.on_attach,
    -- An empty body an action wrote opens as Markdown (lua/lreview/body.lua).
    commands = { ['lreview.showBody'] = require('lreview.body').show_body_command },
  }, { bufnr = bufnr })
end

--- Sends the current settings to running servers, so a second setup() call
--- takes effect without a restart.
local function push_settings()
  for _, client in ipairs(vim.lsp.get_clients({ name = 'lreview' })) do
    client.settings = { lreview = vim.deepcopy(options.settings or {}) }
    local params = { settings = client.settings }
    if vim.fn.has('nvim-0.11') == 1 then
      client:notify('workspace/didChangeConfiguration', params)
    else
      client.notify('workspace/didChangeConfiguration', params)
    end
  end
end

-- A plain check rather than vim.validate, whose signature changed in 0.11.
local function check_option(name, value, types)
  if value ~= nil and not vim.tbl_contains(types, type(value)) then
    error(('lreview.setup: `%s` must be a %s, got a %s'):format(name, table.concat(types, ' or '), type(value)), 3)
  end
end

--- Configures the client and starts it for every lreview buffer, now and
--- later. Safe to call again with new options.
---@param opts? lreview.Options
function M.setup(opts)
  opts = opts or {}
  check_option('cmd', opts.cmd, { 'string', 'table' })
  check_option('settings', opts.settings, { 'table' })
  check_option('on_attach', opts.on_attach, { 'function' })
  check_option('capabilities', opts.capabilities, { 'table' })
  options = vim.tbl_extend('force', { settings = {} }, opts)
  configured = true
  M.define_highlights()

  local group = vim.api.nvim_create_augroup('lreview', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'lreview',
    desc = 'Start lreview-lsp',
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- setup() may run after review files are open (lazy loading, late config).
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'lreview' then
      M.start(buf)
    end
  end
  -- The source files the reviews name, ]r / [r, :LreviewComments.
  require('lreview.sources').setup(group, M.start)
  push_settings()
end

--- Whether the user enabled the server through Neovim 0.11's
--- vim.lsp.enable('lreview') (with lsp/lreview.lua), in which case the
--- automatic setup must not start a second client.
local function enabled_natively()
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled('lreview')
  end
  local enabled = rawget(vim.lsp, '_enabled_configs')
  return type(enabled) == 'table' and enabled.lreview ~= nil
end

--- Called by plugin/lreview.lua on the first lreview buffer: runs setup()
--- with defaults unless the user called it, opted out with
--- vim.g.lreview_auto_setup = false, or uses vim.lsp.enable('lreview').
function M.auto_setup()
  local auto = vim.g.lreview_auto_setup
  if configured or auto == false or auto == 0 or enabled_natively() then
    return
  end
  M.setup() -- also starts the server for this buffer
end

--- Whether setup() has run (explicitly or automatically).
function M.is_configured()
  return configured
end

return M
