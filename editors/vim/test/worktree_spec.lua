-- The review meets its working tree, in a real Neovim against the real
-- server (run.sh runs it when LREVIEW_LSP is set): a repository holding
-- the review and the file it reviews; gd on a diff line and
-- vim.lsp.buf.implementation() on a comment open the source at the right
-- line, and the suggestion's code action edits the source.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 15000

local root, review_path, source_path, review_buf

--- The RIGHT image of the fixture's file: its hunk at line 70.
local function source_lines()
  local out = { 'package api' }
  for i = 2, 69 do
    out[#out + 1] = '// line ' .. i
  end
  vim.list_extend(out, {
    '    ctx := context.Background()',
    '    defer cancel(ctx)',
    '    result, err := calculate(input)',
    '    _ = err // 🚀 later',
    '    return result, nil',
    '}',
  })
  return out
end

local function goto_text(text)
  vim.api.nvim_set_current_buf(review_buf)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(review_buf, 0, -1, false)) do
    local col = line:find(text, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { i, col })
      return
    end
  end
  error('text not found: ' .. text, 2)
end

--- Waits until the current window shows the source file; returns its line.
local function wait_source(what)
  local ok = vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_name(0) == source_path
  end)
  H.ok(ok, what .. ': the source was not opened; current buffer ' .. vim.api.nvim_buf_get_name(0))
  return vim.api.nvim_win_get_cursor(0)[1]
end

H.test('the server starts in the repository', function()
  root = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(root .. '/.git', 'p')
  vim.fn.mkdir(root .. '/internal/api', 'p')
  vim.fn.mkdir(root .. '/reviews', 'p')
  source_path = root .. '/internal/api/handler.go'
  vim.fn.writefile(source_lines(), source_path)
  review_path = root .. '/reviews/handler.review.json'
  vim.fn.writefile(vim.fn.readfile(vim.fs.joinpath(H.fixtures, 'worktree.review.json')), review_path)
  require('lreview').setup({ cmd = vim.env.LREVIEW_LSP })
  vim.cmd.edit(vim.fn.fnameescape(review_path))
  review_buf = vim.api.nvim_get_current_buf()
  local id = require('lreview').start(review_buf)
  local c
  vim.wait(TIMEOUT, function()
    c = vim.lsp.get_client_by_id(id)
    return c == nil or c.initialized == true
  end)
  H.ok(c and c.initialized, 'the server did not initialize')
  H.eq(c.root_dir, root, 'root_dir')
end)

H.test('gd on a diff line opens the source at that line', function()
  goto_text('"+    _ = err')
  vim.cmd('normal gd')
  H.eq(wait_source('gd'), 73, 'cursor line in handler.go')
end)

H.test('implementation on a comment opens its lines', function()
  goto_text('Return the error')
  vim.lsp.buf.implementation()
  H.eq(wait_source('implementation'), 72, 'cursor line in handler.go')
end)

H.test("the suggestion's code action edits the source", function()
  goto_text('Return the error')
  local title = "Apply c1's suggestion to internal/api/handler.go:72–73"
  local seen = {}
  -- Neovim prints the edit's label ("Workspace edit …") as it applies it:
  -- kept out of the test's report.
  local printed = {}
  local orig_print = _G.print
  _G.print = function(...)
    printed[#printed + 1] = table.concat(vim.tbl_map(tostring, { ... }), ' ')
  end
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      seen[#seen + 1] = a.title
      return a.title == title
    end,
  })
  local src_buf = vim.fn.bufnr(source_path)
  local ok = vim.wait(TIMEOUT, function()
    return src_buf > 0 and vim.tbl_contains(vim.api.nvim_buf_get_lines(src_buf, 0, -1, false), '    if err != nil {')
  end)
  _G.print = orig_print
  H.ok(ok, 'the suggestion was not applied; actions seen: ' .. vim.inspect(seen))
  H.eq(printed, { 'Workspace edit ' .. title }, 'the label Neovim shows')
  H.eq(vim.api.nvim_buf_get_lines(src_buf, 70, 76, false), {
    '    defer cancel(ctx)',
    '    result, err := calculate(input)',
    '    if err != nil {',
    '        return Output{}, err',
    '    }',
    '    return result, nil',
  }, 'handler.go lines 71–76')
end)
