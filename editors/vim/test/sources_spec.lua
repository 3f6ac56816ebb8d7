-- The review in the code, in a real Neovim against the real server
-- (run.sh runs it when LREVIEW_LSP is set): a repository holding two
-- reviews on disk and the two files they review. Opening a source file
-- attaches the server; the comments are diagnostics at their lines and
-- follow typing; the hover shows the thread; ]r / [r move across the
-- files; Reply lands in the review with the cursor in the new body;
-- :LreviewComments fills the quickfix list.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 15000

local root, review_path, source_path, other_path, source_buf

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

--- The review-comment diagnostics of buf, as "line: message" (lines from 1).
local function comments(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'review-comment' then
      out[#out + 1] = (d.lnum + 1) .. ': ' .. d.message
    end
  end
  table.sort(out)
  return out
end

local function wait_comments(buf, want, what)
  local got
  local ok = vim.wait(TIMEOUT, function()
    got = comments(buf)
    return vim.deep_equal(got, want)
  end)
  H.ok(ok, ('%s: got %s, want %s'):format(what, vim.inspect(got), vim.inspect(want)))
end

H.test('opening a reviewed source file attaches the server', function()
  root = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(root .. '/.git', 'p')
  vim.fn.mkdir(root .. '/internal/api', 'p')
  vim.fn.mkdir(root .. '/reviews', 'p')
  source_path = root .. '/internal/api/handler.go'
  other_path = root .. '/internal/api/zz.go'
  vim.fn.writefile(source_lines(), source_path)
  vim.fn.writefile(source_lines(), other_path)
  review_path = root .. '/reviews/handler.review.json'
  local review = vim.fn.readfile(vim.fs.joinpath(H.fixtures, 'worktree.review.json'))
  vim.fn.writefile(review, review_path)
  -- A second review, of zz.go: one comment on its line 70.
  local second = table.concat(review, '\n'):gsub('internal/api/handler.go', 'internal/api/zz.go')
  local doc = vim.json.decode(second)
  doc.comments = { { id = 's1', author = 'assistant', path = 'internal/api/zz.go', side = 'RIGHT', start_line = 70, body = 'Which context?' } }
  vim.fn.writefile({ vim.json.encode(doc) }, root .. '/reviews/second.review.json')
  vim.fn.writefile({ 'package main' }, root .. '/main.go')

  require('lreview').setup({ cmd = vim.env.LREVIEW_LSP })
  vim.cmd.edit(vim.fn.fnameescape(root .. '/main.go'))
  H.eq(#vim.lsp.get_clients({ bufnr = 0, name = 'lreview' }), 0, 'clients on main.go, which no review names')
  vim.cmd.edit(vim.fn.fnameescape(source_path))
  source_buf = vim.api.nvim_get_current_buf()
  H.eq(vim.bo[source_buf].filetype, 'go', 'filetype')
  local ok = vim.wait(TIMEOUT, function()
    return #vim.lsp.get_clients({ bufnr = source_buf, name = 'lreview' }) == 1
  end)
  H.ok(ok, 'the server did not attach to handler.go')
end)

H.test('the comments are diagnostics at their lines', function()
  wait_comments(source_buf, {
    '72: c1: Return the error 🚀.',
    '72: c2: The old call ignored errors. · on removed lines',
  }, 'handler.go')
end)

H.test('typing three lines above moves them three lines down', function()
  vim.api.nvim_buf_set_lines(source_buf, 1, 1, false, { '// a', '// b', '// c' })
  wait_comments(source_buf, {
    '75: c1: Return the error 🚀.',
    '75: c2: The old call ignored errors. · on removed lines',
  }, 'handler.go after typing')
end)

H.test('the hover shows the thread', function()
  vim.api.nvim_set_current_buf(source_buf)
  vim.api.nvim_win_set_cursor(0, { 76, 4 })
  -- The request vim.lsp.buf.hover() sends (the float itself needs a
  -- markdown parser this headless Neovim may lack).
  local res = vim.lsp.buf_request_sync(source_buf, 'textDocument/hover', vim.lsp.util.make_position_params(0, 'utf-16'), TIMEOUT)
  local text
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then
      text = table.concat(vim.lsp.util.convert_input_to_markdown_lines(r.result.contents), '\n')
    end
  end
  H.ok(text, 'no hover')
  H.ok(text:find('Return the error', 1, true) and text:find('c1', 1, true) and text:find('active', 1, true), 'hover text: ' .. text)
end)

local function wait_at(path, line, what)
  local ok = vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_name(0) == path and vim.api.nvim_win_get_cursor(0)[1] == line
  end)
  H.ok(ok, ('%s: at %s:%d, want %s:%d'):format(what, vim.api.nvim_buf_get_name(0), vim.api.nvim_win_get_cursor(0)[1], path, line))
end

H.test(']r and [r move across the two files', function()
  vim.api.nvim_set_current_buf(source_buf)
  vim.api.nvim_win_set_cursor(0, { 76, 0 })
  vim.cmd('normal ]r')
  wait_at(other_path, 70, ']r from handler.go:76')
  vim.cmd('normal ]r')
  wait_at(source_path, 75, ']r from zz.go:70 (wrapping)')
  vim.cmd('normal [r')
  wait_at(other_path, 70, '[r from handler.go:75 (wrapping)')
end)

H.test(':LreviewComments lists every comment', function()
  vim.cmd('LreviewComments')
  local items = vim.fn.getqflist()
  local got = {}
  for _, it in ipairs(items) do
    got[#got + 1] = vim.fs.basename(vim.api.nvim_buf_get_name(it.bufnr)) .. ':' .. it.lnum
  end
  H.eq(got, { 'handler.go:75', 'handler.go:75', 'zz.go:70' }, 'quickfix')
  vim.cmd('cclose')
end)

H.test('Reply lands in the review, the cursor in its body', function()
  vim.api.nvim_set_current_buf(source_buf)
  vim.api.nvim_win_set_cursor(0, { 76, 0 })
  local orig_print = _G.print
  _G.print = function() end
  local seen = {}
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      seen[#seen + 1] = a.title
      return a.title == 'Reply to c1'
    end,
  })
  local ok = vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_name(0) == review_path
  end)
  _G.print = orig_print
  H.ok(ok, 'the review was not shown; actions seen: ' .. vim.inspect(seen))
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2]
  H.ok(line:find('"body": ""', 1, true), 'cursor line: ' .. line)
  H.eq(line:sub(col, col), '"', 'the character before the cursor')
  local doc = vim.json.decode(table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n'))
  H.eq(#doc.comments[1].replies, 1, "c1's replies")
  H.eq(doc.comments[1].replies[1].body, '', 'the new reply')
end)
