-- Writing a review by hand, in a real Neovim against the real server
-- (run.sh runs it when LREVIEW_LSP is set): the cursor lands in the body
-- a "Comment on …" or "Reply to …" action writes, asked from anywhere on
-- a patch line, its indentation included.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 15000

local bufnr

local function lines()
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

--- 1-based row of the first line holding {text}.
local function row_of(text)
  for i, line in ipairs(lines()) do
    if line:find(text, 1, true) then
      return i
    end
  end
  error('text not found: ' .. text, 2)
end

--- Applies the code action titled {title} at the cursor, as a user picks it.
local function apply_action(title)
  local seen = {}
  local print_ = _G.print
  _G.print = function() end -- Neovim prints the edit's label
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      seen[#seen + 1] = a.title
      return a.title == title
    end,
  })
  vim.wait(TIMEOUT, function()
    return vim.tbl_contains(seen, title)
  end)
  vim.wait(200, function()
    return false
  end) -- the edit and the command follow the choice
  _G.print = print_
  return seen
end

--- Waits until the cursor is between the quotes of an empty "body".
local function wait_in_empty_body(what)
  local line, col
  local ok = vim.wait(TIMEOUT, function()
    local pos = vim.api.nvim_win_get_cursor(0)
    line = vim.api.nvim_get_current_line()
    col = pos[2]
    return line:sub(1, col):match('"body": "$') ~= nil and line:sub(col + 1, col + 1) == '"'
  end)
  H.ok(ok, what .. ': the cursor is not in an empty body: ' .. vim.inspect(line) .. ' column ' .. tostring(col))
end

H.test('the server starts', function()
  require('lreview').setup({ cmd = vim.env.LREVIEW_LSP, settings = { author = 'tester' } })
  vim.cmd.edit(vim.fn.fnameescape(H.copy_fixture('sample.review.json')))
  bufnr = vim.api.nvim_get_current_buf()
  local id = require('lreview').start(bufnr)
  local c
  vim.wait(TIMEOUT, function()
    c = vim.lsp.get_client_by_id(id)
    return c == nil or c.initialized == true
  end)
  H.ok(c and c.initialized, 'the server did not initialize')
end)

H.test('"Comment on" from column 1 of a patch line puts the cursor in the new body', function()
  vim.api.nvim_win_set_cursor(0, { row_of('"+    _ = err"'), 0 })
  local before = #lines()
  local seen = apply_action('Comment on RIGHT 73')
  H.ok(vim.tbl_contains(seen, 'Comment on RIGHT 73'), 'actions at column 1: ' .. vim.inspect(seen))
  H.ok(vim.wait(TIMEOUT, function()
    return #lines() > before
  end), 'no comment was added')
  wait_in_empty_body('Comment on')
  -- In Normal mode the cursor is on the closing quote: `i` types before it.
  vim.api.nvim_feedkeys(vim.keycode('iLooks wrong.<Esc>'), 'nx', false)
  H.ok(vim.api.nvim_get_current_line():find('"body": "Looks wrong."', 1, true), 'typed: ' .. vim.api.nvim_get_current_line())
end)

H.test('"Reply to" puts the cursor in the new reply', function()
  vim.api.nvim_win_set_cursor(0, { row_of('"id": "c1"'), 6 })
  local before = #lines()
  local seen = apply_action('Reply to c1')
  H.ok(vim.tbl_contains(seen, 'Reply to c1'), 'actions on c1: ' .. vim.inspect(seen))
  H.ok(vim.wait(TIMEOUT, function()
    return #lines() > before
  end), 'no reply was added')
  wait_in_empty_body('Reply to')
end)
