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

local root, review_path, source_path, other_path, source_buf, main_buf

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

  -- A repository holding no review: its files start no server.
  local bare = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(bare .. '/.git', 'p')
  vim.fn.writefile({ 'package main' }, bare .. '/main.go')
  require('lreview').setup({ cmd = vim.env.LREVIEW_LSP })
  vim.cmd.edit(vim.fn.fnameescape(bare .. '/main.go'))
  H.eq(#vim.lsp.get_clients({ bufnr = 0, name = 'lreview' }), 0, 'clients on a file of a repository without reviews')
  -- Which files of a repository with reviews have comments is the
  -- server's to say: main.go is attached, and gets none.
  vim.cmd.edit(vim.fn.fnameescape(root .. '/main.go'))
  main_buf = vim.api.nvim_get_current_buf()
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
  H.eq(#vim.lsp.get_clients({ bufnr = main_buf, name = 'lreview' }), 1, 'the server attached to main.go')
  H.eq(comments(main_buf), {}, 'main.go, which no review comments on')
  -- Each carries its thread as data: the review's words.
  for _, d in ipairs(vim.diagnostic.get(source_buf)) do
    local t = d.user_data and d.user_data.lsp and d.user_data.lsp.data
    H.ok(t and t.review and t.review:find('handler.review.json', 1, true), 'data of ' .. d.message .. ': ' .. vim.inspect(t))
    if t.comment == 'c1' then
      H.eq(t.suggestion.lines[1], '    result, err := calculate(input)', "c1's suggestion")
    end
  end
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
  H.eq(items[3].text, 's1 (assistant): Which context? · second.review.json', "zz.go's row: the comment's words")
  vim.cmd('cclose')
end)

H.test('Reply opens a Markdown buffer; :w writes the reply into the review', function()
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
    return vim.api.nvim_buf_get_name(0):find('^lreview://') ~= nil
  end)
  _G.print = orig_print
  H.ok(ok, 'no Markdown buffer opened; actions seen: ' .. vim.inspect(seen) .. ', at ' .. vim.api.nvim_buf_get_name(0))
  H.eq(vim.api.nvim_buf_get_name(0), 'lreview://handler.review.json/c1/reply 1.md', 'the body buffer')
  H.eq(vim.bo.filetype, 'markdown', 'its filetype')
  H.eq(vim.api.nvim_buf_get_lines(0, 0, -1, false), { '' }, 'the new reply, empty')
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'Done: "quoted" \\ and', '', '```go', 'return err', '```' })
  vim.cmd('write')
  local want = 'Done: "quoted" \\ and\n\n```go\nreturn err\n```'
  local doc
  ok = vim.wait(TIMEOUT, function()
    local okj, d = pcall(vim.json.decode, table.concat(vim.fn.readfile(review_path), '\n'))
    doc = okj and d or nil
    return doc and doc.comments[1].replies and doc.comments[1].replies[1] and doc.comments[1].replies[1].body == want
  end)
  H.ok(ok, 'the review on disk: ' .. vim.inspect(doc and doc.comments[1].replies))
  H.ok(table.concat(vim.fn.readfile(review_path), '\n'):find('"body": "Done: \\"quoted\\" \\\\ and\\n\\n```go', 1, true), 'the JSON string is the writer\'s')
  vim.cmd('close')
  -- Back in the source: the comments are shown (signs), not only held.
  vim.api.nvim_set_current_buf(source_buf)
  ok = vim.wait(TIMEOUT, function()
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(source_buf, -1, 0, -1, { details = true })) do
      if m[4].sign_text or m[4].virt_text then
        return true
      end
    end
    return false
  end)
  H.ok(ok, 'handler.go shows no comment after the reply')
end)
