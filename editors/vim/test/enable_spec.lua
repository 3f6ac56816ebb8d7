-- Neovim 0.11+: the server started by vim.lsp.enable('lreview') from the
-- plugin's lsp/lreview.lua, end to end against a real server. run.sh runs
-- this file when LREVIEW_LSP is set and the Neovim is 0.11 or newer; the
-- automatic setup is left on, as a user's would be, and must not start a
-- second client.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 15000
local bufnr

local function clients()
  return vim.lsp.get_clients({ bufnr = bufnr, name = 'lreview' })
end

H.test('vim.lsp.enable("lreview") starts one client from lsp/lreview.lua', function()
  vim.g.lreview_auto_setup = nil
  -- Only the command differs from the shipped config: the binary under test.
  vim.lsp.config('lreview', { cmd = { vim.env.LREVIEW_LSP, '--stdio' }, settings = { lreview = { author = 'enabler' } } })
  vim.lsp.enable('lreview')
  vim.cmd.edit(vim.fn.fnameescape(H.copy_fixture('drift.review.json')))
  bufnr = vim.api.nvim_get_current_buf()
  H.eq(vim.bo[bufnr].filetype, 'lreview', 'filetype')
  H.ok(vim.wait(TIMEOUT, function()
    local c = clients()[1]
    return c ~= nil and c.initialized == true
  end), 'no lreview client initialized')
  local c = clients()[1]
  -- From lsp/lreview.lua on the runtimepath, merged with the user's config.
  H.eq(c.config.filetypes, { 'lreview' }, 'filetypes from lsp/lreview.lua')
  H.eq(c.config.root_markers, { '.git' }, 'root_markers from lsp/lreview.lua')
  H.eq(c.config.settings, { lreview = { author = 'enabler' } }, 'settings')
  H.eq(require('lreview').is_configured(), false, 'the automatic setup stood aside')
  -- Give a second client every chance to appear: the FileType handlers have run.
  vim.wait(200, function()
    return #clients() > 1
  end)
  H.eq(#clients(), 1, 'clients')
end)

H.test('the drift diagnostic arrives and the preferred fix re-anchors the comment', function()
  H.ok(vim.wait(TIMEOUT, function()
    return vim.iter(vim.diagnostic.get(bufnr)):any(function(d)
      return d.code == 'snippet-mismatch'
    end)
  end), 'no snippet-mismatch diagnostic; got ' .. vim.inspect(vim.diagnostic.get(bufnr)))
  local d = vim.iter(vim.diagnostic.get(bufnr)):find(function(d)
    return d.code == 'snippet-mismatch'
  end)
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local applied = false
  vim.lsp.buf.code_action({
    filter = function(action)
      return action.isPreferred == true
    end,
    apply = true,
  })
  applied = vim.wait(TIMEOUT, function()
    return vim.iter(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)):any(function(l)
      return l:find('"start_line": 72', 1, true) ~= nil
    end)
  end)
  H.ok(applied, 'start_line did not become 72:\n' .. table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n'))
  H.ok(vim.wait(TIMEOUT, function()
    return not vim.iter(vim.diagnostic.get(bufnr)):any(function(x)
      return x.code == 'snippet-mismatch'
    end)
  end), 'the diagnostic stayed after the fix')
end)
