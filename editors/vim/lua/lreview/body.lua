-- :LreviewBody — the comment or reply body at the cursor in a Markdown
-- buffer, written back to the review on :w. The server unescapes the body
-- (lreview.editBody) and escapes it back (lreview.setBody), so Neovim
-- writes a body as every editor does: one JSON string, nothing else of
-- the review changed.
local M = {}

--- A request to the lreview client, waited for; the result or an error.
local function request(client, bufnr, method, params)
  local res, err
  if vim.fn.has('nvim-0.11') == 1 then
    res, err = client:request_sync(method, params, 10000, bufnr)
  else
    res, err = client.request_sync(method, params, 10000, bufnr)
  end
  if not res then
    return nil, err or 'no answer'
  end
  if res.err then
    return nil, res.err.message or vim.inspect(res.err)
  end
  return res.result
end

--- The text's lines, and whether its line breaks are all CRLF.
local function split(text)
  local crlf = text:find('\r\n', 1, true) ~= nil and not text:gsub('\r\n', ''):find('\n', 1, true)
  return vim.split(text, crlf and '\r\n' or '\n', { plain = true }), crlf
end

--- Opens the body at the cursor of the review in buffer {bufnr}.
---@param bufnr? integer
function M.edit(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'lreview' })[1]
  if not client then
    vim.notify('lreview: the server is not running for this buffer', vim.log.levels.WARN)
    return
  end
  local uri = vim.uri_from_bufnr(bufnr)
  local pos = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  local body, err = request(client, bufnr, 'workspace/executeCommand', {
    command = 'lreview.editBody',
    arguments = { uri, pos },
  })
  if not body then
    vim.notify('lreview: ' .. tostring(err), vim.log.levels.WARN)
    return
  end
  local lines, crlf = split(body.text)
  local what = body.reply >= 0 and ('reply %d'):format(body.reply + 1) or 'body'
  local sb = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(sb, ('lreview://%d/%s/%s.md'):format(bufnr, body.comment, what))
  vim.api.nvim_buf_set_lines(sb, 0, -1, false, lines)
  vim.bo[sb].buftype = 'acwrite'
  vim.bo[sb].bufhidden = 'wipe'
  vim.bo[sb].swapfile = false
  vim.bo[sb].fileformat = crlf and 'dos' or 'unix'
  -- silent!: a Markdown ftplugin that fails (a Neovim built without its
  -- Markdown parser) must not cost the person the buffer.
  vim.api.nvim_buf_call(sb, function()
    vim.cmd('silent! setlocal filetype=markdown')
  end)
  vim.bo[sb].modified = false
  vim.api.nvim_create_autocmd('BufWriteCmd', {
    buffer = sb,
    desc = 'lreview: write the body back to the review',
    callback = function()
      local text = table.concat(vim.api.nvim_buf_get_lines(sb, 0, -1, false), vim.bo[sb].fileformat == 'dos' and '\r\n' or '\n')
      local _, werr = request(client, bufnr, 'workspace/executeCommand', {
        command = 'lreview.setBody',
        arguments = { uri, body.comment, body.reply, text },
      })
      if werr then
        vim.notify('lreview: the body was not written: ' .. tostring(werr), vim.log.levels.ERROR)
        return
      end
      vim.bo[sb].modified = false
    end,
  })
  vim.cmd('split')
  vim.api.nvim_win_set_buf(0, sb)
end

return M
