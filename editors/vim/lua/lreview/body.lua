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

--- Opens a Markdown buffer for the body at place {comment, reply} of the
--- review at uri, holding text; :w writes it back (lreview.setBody). After
--- the write, a review no window shows (an edit loaded it behind the
--- scenes) is written too, as a posted reply is posted; one the person
--- has open is left for them to write.
---@param client vim.lsp.Client
---@param uri string the review's URI
---@param place {comment: string, reply: integer}
---@param text string
function M.open(client, uri, place, text)
  local lines, crlf = split(text)
  local what = place.reply >= 0 and ('reply %d'):format(place.reply + 1) or 'body'
  local sb = vim.api.nvim_create_buf(true, false)
  local review = vim.fs.basename(vim.uri_to_fname(uri))
  vim.api.nvim_buf_set_name(sb, ('lreview://%s/%s/%s.md'):format(review, place.comment, what))
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
      local body = table.concat(vim.api.nvim_buf_get_lines(sb, 0, -1, false), vim.bo[sb].fileformat == 'dos' and '\r\n' or '\n')
      -- The review's buffer named: Neovim sends its pending changes
      -- first, so that the server writes against the text it holds.
      local _, werr = request(client, vim.uri_to_bufnr(uri), 'workspace/executeCommand', {
        command = 'lreview.setBody',
        arguments = { uri, place.comment, place.reply, body },
      })
      if werr then
        vim.notify('lreview: the body was not written: ' .. tostring(werr), vim.log.levels.ERROR)
        return
      end
      vim.bo[sb].modified = false
      local rb = vim.uri_to_bufnr(uri)
      if vim.api.nvim_buf_is_loaded(rb) and vim.bo[rb].modified then
        if #vim.fn.win_findbuf(rb) == 0 then
          vim.api.nvim_buf_call(rb, function()
            vim.cmd('silent noautocmd write')
          end)
          -- noautocmd: the server is told of the save as any write is.
          vim.api.nvim_exec_autocmds('BufWritePost', { buffer = rb, modeline = false })
        else
          vim.notify(('lreview: %s of %s is in %s, which is open with unsaved changes: write it there to keep it'):format(what, place.comment, review), vim.log.levels.INFO)
        end
      end
    end,
  })
  vim.cmd('split')
  vim.api.nvim_win_set_buf(0, sb)
end

--- The client-side lreview.showBody: an action that wrote an empty body
--- ("Reply to c1", "Comment on RIGHT 72") opens it as Markdown, instead of
--- putting the cursor between the review's quotes.
---@param command lsp.Command
---@param ctx table
function M.show_body_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local args = command.arguments or {}
  if not client or type(args[1]) ~= 'string' or type(args[2]) ~= 'string' or type(args[3]) ~= 'number' then
    vim.notify('lreview: lreview.showBody takes the review, the comment and the reply', vim.log.levels.WARN)
    return
  end
  M.open(client, args[1], { comment = args[2], reply = args[3] }, '')
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
  M.open(client, uri, { comment = body.comment, reply = body.reply }, body.text)
end

return M
