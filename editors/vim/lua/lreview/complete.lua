-- Completion items the built-in completion cannot insert alone.
--
-- Neovim's completion inserts an item's word: one line of text. The
-- server's items may need more: a whole new comment (several lines, a
-- snippet where the client takes snippets), or an extra edit (the comma
-- the member before needs, the colon after a key typed between quotes).
-- vim.lsp.completion.enable() (Neovim 0.11+) applies those itself on
-- CompleteDone; with 'omnifunc' (0.10's vim.lsp.omnifunc, or 0.11+
-- without enable()) nobody does, and the review would be left broken.
-- This module does it then, for lreview buffers only: it takes the word
-- back out, applies the extra edits to the text as the server saw it, and
-- inserts the item's text (its lines indented by the cursor line, as the
-- protocol's default insertTextMode says; a snippet through vim.snippet).
local M = {}

--- Whether vim.lsp.completion handles CompleteDone in the buffer.
---@param bufnr integer
---@return boolean
local function native(bufnr)
  for _, au in ipairs(vim.api.nvim_get_autocmds({ buffer = bufnr, event = 'CompleteDone' })) do
    if au.group_name and au.group_name:find('lsp.completion', 1, true) then
      return true
    end
  end
  return false
end

--- The cursor's place in {lines} inserted at row, col: inside the empty
--- body a new comment is written with, else after the text.
local function cursor_in(lines, row, col)
  for i, l in ipairs(lines) do
    local at = l:find('"body": ""', 1, true)
    if at then
      return row + i - 1, (i == 1 and col or 0) + at + #'"body": "' - 1
    end
  end
  return row + #lines - 1, (#lines == 1 and col or 0) + #lines[#lines]
end

--- Handles CompleteDone in an lreview buffer.
---@param bufnr integer
function M.on_complete_done(bufnr)
  local reason = (vim.v.event or {}).reason
  if reason and reason ~= 'accept' then
    return
  end
  local done = vim.v.completed_item or {}
  local item = vim.tbl_get(done, 'user_data', 'nvim', 'lsp', 'completion_item')
  if type(item) ~= 'table' or type(item.textEdit) ~= 'table' or native(bufnr) then
    return
  end
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'lreview' })[1]
  if not client then
    return
  end
  local text = item.textEdit.newText or ''
  local snippet = item.insertTextFormat == 2
  local extra = item.additionalTextEdits or {}
  if not snippet and not text:find('\n') and #extra == 0 then
    return -- the word was the whole of it
  end
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  row = row - 1
  local word = done.word or ''
  local start = col - #word
  -- Back to the text the server completed, the place marked.
  vim.api.nvim_buf_set_text(bufnr, row, start, row, col, { '' })
  local ns = vim.api.nvim_create_namespace('lreview.complete')
  local mark = vim.api.nvim_buf_set_extmark(bufnr, ns, row, start, {})
  if #extra > 0 then
    vim.lsp.util.apply_text_edits(extra, bufnr, client.offset_encoding)
  end
  local pos = vim.api.nvim_buf_get_extmark_by_id(bufnr, ns, mark, {})
  vim.api.nvim_buf_del_extmark(bufnr, ns, mark)
  row, start = pos[1], pos[2]
  vim.api.nvim_win_set_cursor(0, { row + 1, start })
  if snippet then
    vim.snippet.expand(text)
    return
  end
  local indent = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, true)[1]:match('^%s*')
  local lines = vim.split(text:gsub('\r\n?', '\n'), '\n', { plain = true })
  for i = 2, #lines do
    lines[i] = indent .. lines[i]
  end
  vim.api.nvim_buf_set_text(bufnr, row, start, row, start, lines)
  local r, c = cursor_in(lines, row, start)
  vim.api.nvim_win_set_cursor(0, { r + 1, c })
end

--- Handles the buffer's CompleteDone events from now on.
---@param bufnr integer
function M.attach(bufnr)
  local group = vim.api.nvim_create_augroup('lreview.complete.' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd('CompleteDone', {
    group = group,
    buffer = bufnr,
    desc = 'lreview: insert what the completion word leaves out',
    callback = function()
      M.on_complete_done(bufnr)
    end,
  })
end

return M
