-- :checkhealth lreview
local M = {}

local health = vim.health

local function check_neovim()
  local version = tostring(vim.version())
  if vim.fn.has('nvim-0.10') == 1 then
    health.ok('Neovim ' .. version)
  else
    health.error('Neovim ' .. version .. ': the Lua client needs Neovim 0.10 or later', {
      'The Vim parts (filetype, syntax, ftplugin) still work.',
    })
  end
end

local function check_filetype()
  local ft = vim.filetype.match({ filename = 'x.review.json' })
  if ft == 'lreview' then
    health.ok('x.review.json is detected as lreview')
  else
    health.error(('x.review.json is detected as %s, want lreview'):format(vim.inspect(ft)), {
      'Make sure the plugin directory (editors/vim) is in runtimepath before filetype detection runs.',
    })
  end
  -- Content detection needs a buffer: the rule reads its first lines.
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { '{', '  "leanreview_review": 1,' })
  local by_content = vim.filetype.match({ buf = buf, filename = 'x.json' })
  vim.api.nvim_buf_delete(buf, { force = true })
  if by_content == 'lreview' then
    health.ok('*.json files whose first key is "leanreview_review" are detected as lreview')
  else
    health.error(('a *.json review exchange is detected as %s, want lreview'):format(vim.inspect(by_content)))
  end
end

local function check_server()
  local lreview = require('lreview')
  local cmd, err, source = lreview.server_cmd()
  if not cmd then
    local advice = vim.list_extend({}, lreview.install_steps())
    vim.list_extend(advice, {
      "Or set `cmd` in require('lreview').setup{} to the binary's path.",
      'Without it you still get filetype detection and diff highlighting.',
    })
    health.warn(err or 'lreview-lsp not found', advice)
    return
  end
  health.ok('server: ' .. table.concat(cmd, ' ') .. ' (' .. source .. ')')
  local ok, result = pcall(function()
    return vim.system({ cmd[1], 'version' }, { text = true }):wait(5000)
  end)
  if ok and result.code == 0 then
    health.ok('version: ' .. vim.trim(result.stdout or ''))
  else
    local detail = ok and vim.trim((result.stderr or '') .. (result.stdout or '')) or tostring(result)
    health.warn('`' .. cmd[1] .. ' version` failed: ' .. detail, lreview.install_steps())
  end
end

local function check_clients()
  local lreview = require('lreview')
  if lreview.is_configured() then
    health.info('setup() has run')
  elseif vim.g.lreview_auto_setup == false or vim.g.lreview_auto_setup == 0 then
    health.info('automatic setup is off (vim.g.lreview_auto_setup); call require("lreview").setup()')
  else
    health.info('setup() runs automatically on the first lreview buffer')
  end
  local clients = vim.lsp.get_clients({ name = 'lreview' })
  for _, client in ipairs(clients) do
    health.info(('client %d running, root %s'):format(client.id, client.root_dir or '(none)'))
  end
end

--- Whether Neovim tells the server of files changed on disk: it declares
--- dynamic registration of workspace/didChangeWatchedFiles (the default
--- on macOS and Windows, not on Linux).
local function check_watching()
  local clients = vim.lsp.get_clients({ name = 'lreview' })
  local caps = clients[1] and clients[1].capabilities or vim.lsp.protocol.make_client_capabilities()
  if vim.tbl_get(caps, 'workspace', 'didChangeWatchedFiles', 'dynamicRegistration') == true then
    health.ok('Neovim watches files for the server: source-changed follows a source file saved anywhere')
    return
  end
  health.info('Neovim watches no files for the server (workspace.didChangeWatchedFiles.dynamicRegistration is off, as on Linux): '
    .. 'the server looks at the reviewed source files itself, every half second, so source-changed still follows a save')
end

function M.check()
  health.start('lreview')
  check_neovim()
  check_filetype()
  check_server()
  check_clients()
  check_watching()
end

return M
