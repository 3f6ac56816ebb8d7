-- The review's verdict in a real Neovim against the real server (run.sh
-- runs it when LREVIEW_LSP is set): a review in a git repository made
-- here, finalized with a security fail. The lens and the `verdict`
-- diagnostic on the first line read every axis; after a commit touching
-- the reviewed file the `branch-moved` banner says the branch moved past
-- the review, and its quick fix rebases it.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 15000
local review_buf, root

local function git(...)
  local out = vim.fn.system(vim.list_extend({ 'git', '-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false' }, { ... }))
  H.ok(vim.v.shell_error == 0, 'git ' .. table.concat({ ... }, ' ') .. ': ' .. out)
  return out
end

local function diag(code)
  for _, d in ipairs(vim.diagnostic.get(review_buf)) do
    if d.code == code then
      return d
    end
  end
end

local function lenses()
  local res = vim.lsp.buf_request_sync(review_buf, 'textDocument/codeLens',
    { textDocument = vim.lsp.util.make_text_document_params(review_buf) }, TIMEOUT)
  local titles = {}
  for _, r in pairs(res or {}) do
    for _, l in ipairs(r.result or {}) do
      titles[#titles + 1] = l.command and l.command.title
    end
  end
  return titles
end

local VERDICT = 'contract: n/a · correctness: pass · security: fail (c1) · test gap: unavailable · visual: n/a · verdict: Block'

H.test('a finalized review: the verdict on the first line and in the lens', function()
  root = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(root, 'p')
  git('init', '-q', '-b', 'main')
  vim.fn.writefile({ 'package a', '', 'func A() int { return 1 }' }, root .. '/a.go')
  git('add', 'a.go')
  git('commit', '-q', '-m', 'base')
  vim.fn.writefile({ 'package a', '', 'func A() int { return 10 }' }, root .. '/a.go')
  git('commit', '-q', '-am', 'ten')
  local review = vim.fn.system({ vim.env.LREVIEW_LSP, 'new', '--title', 'ten' }, git('diff', 'HEAD~1', 'HEAD'))
  local doc = vim.json.decode(review)
  -- The finalize an agent writes (lreview_finalize), by hand here: the
  -- patch's sum is what the server checks it against.
  local patch = table.concat(doc.patch, '\n') .. '\n'
  doc.comments = { { id = 'c1', path = 'a.go', side = 'RIGHT', start_line = 3, body = 'Ten overflows the slot.', snippet = 'func A() int { return 10 }' } }
  doc.lreview_finalize = {
    by = 'assistant', at = '2026-12-07T12:00:00Z', patch = vim.fn.sha256(patch), verdict = 'Block',
    axes = { correctness = { state = 'pass' }, security = { state = 'fail', evidence = { 'c1' } }, test_gap = { state = 'unavailable' } },
  }
  local path = root .. '/pr.review.json'
  vim.fn.writefile({ vim.json.encode(doc) }, path)
  require('lreview').setup({ cmd = vim.env.LREVIEW_LSP })
  vim.cmd.edit(vim.fn.fnameescape(path))
  review_buf = vim.api.nvim_get_current_buf()
  require('lreview').start(review_buf)
  local ok = vim.wait(TIMEOUT, function()
    local d = diag('verdict')
    return d and d.message == VERDICT
  end, 50)
  local d = diag('verdict')
  H.ok(ok, 'verdict: got ' .. vim.inspect(d and d.message))
  H.eq(d.lnum, 0, 'the verdict sits on the first line')
  H.eq(d.severity, vim.diagnostic.severity.ERROR, 'Block is an error')
  H.ok(vim.tbl_contains(lenses(), VERDICT), 'lenses: ' .. vim.inspect(lenses()))
  H.ok(diag('branch-moved') == nil, 'no banner at the reviewed commit')
end)

H.test('after a commit touching the reviewed file, the banner and its rebase', function()
  vim.fn.writefile({ 'package a', '', '// A is the answer.', 'func A() int { return 10 }' }, root .. '/a.go')
  git('commit', '-q', '-am', 'doc')
  -- An edit makes the server publish again (it asks git then).
  vim.api.nvim_buf_set_lines(review_buf, -1, -1, false, { '' })
  local want = 'the branch moved past this review: 1 commit touches 1 of its files — rebase'
  local ok = vim.wait(TIMEOUT, function()
    local d = diag('branch-moved')
    return d and d.message == want
  end, 50)
  H.ok(ok, 'banner: got ' .. vim.inspect(diag('branch-moved')))
  H.ok(vim.tbl_contains(lenses(), want), 'lenses: ' .. vim.inspect(lenses()))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  local before = vim.api.nvim_buf_get_changedtick(review_buf)
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      return a.title == 'Rebase the review onto the branch (git diff of its base and HEAD)'
    end,
  })
  H.ok(vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_changedtick(review_buf) ~= before
  end), 'the rebase was not applied')
  local text = table.concat(vim.api.nvim_buf_get_lines(review_buf, 0, -1, false), '\n')
  H.ok(text:find('+// A is the answer.', 1, true), 'the rebased patch:\n' .. text)
  ok = vim.wait(TIMEOUT, function()
    return diag('branch-moved') == nil
  end, 50)
  H.ok(ok, 'the banner stays after the rebase')
end)
