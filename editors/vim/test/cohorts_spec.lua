-- The review's cohorts in a real Neovim against the real server (run.sh
-- runs it when LREVIEW_LSP is set): a Go module of two packages made here
-- with git, store and cart, where the change of store.Max is used by cart;
-- a review of the diff. Lenses are turned on as Neovim's docs say (0.12:
-- vim.lsp.codelens.enable; before: refresh on the documented events).
-- The cohort lens appears on the first file header once the working
-- tree's graph is built, without the person doing anything on a Neovim
-- that takes workspace/codeLens/refresh (0.12), at the next CursorHold on
-- one that does not (0.10); "mark reviewed" writes the mark into the
-- review and the lens then says reviewed; the header's hover names the
-- cohort and its blast radius.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 20000
local review_buf, root, review_path

-- Neovim 0.12's codelens module displays and refreshes by itself (and
-- takes the server's refresh); 0.10's is refreshed by the person's
-- autocmds and declares no refreshSupport.
local ENABLE = vim.lsp.codelens.enable ~= nil

local function git(...)
  local out = vim.fn.system(vim.list_extend({ 'git', '-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false' }, { ... }))
  H.ok(vim.v.shell_error == 0, 'git ' .. table.concat({ ... }, ' ') .. ': ' .. out)
  return out
end

--- The lenses Neovim holds for the buffer, as { line (0-based), title }.
local function lenses()
  local out = {}
  local got = ENABLE and vim.lsp.codelens.get({ bufnr = review_buf }) or vim.lsp.codelens.get(review_buf)
  for _, l in ipairs(got) do
    l = l.lens or l
    if l.command then
      out[#out + 1] = { l.range.start.line, l.command.title }
    end
  end
  table.sort(out, function(a, b)
    return a[1] < b[1] or a[1] == b[1] and a[2] < b[2]
  end)
  return out
end

--- The first lens whose title starts with prefix, or nil.
local function lens(prefix)
  for _, l in ipairs(lenses()) do
    if vim.startswith(l[2], prefix) then
      return l
    end
  end
end

--- Waits for a lens whose title starts with prefix. On 0.10 the person's
--- CursorHold refreshes; on 0.12 nothing is done here but wait.
local function wait_lens(prefix)
  local ok = vim.wait(TIMEOUT, function()
    if not ENABLE then
      vim.api.nvim_exec_autocmds('CursorHold', { buffer = review_buf })
    end
    return lens(prefix) ~= nil
  end, 100)
  H.ok(ok, ('no lens %q; lenses: %s'):format(prefix, vim.inspect(lenses())))
  return lens(prefix)
end

local function line_of(text)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(review_buf, 0, -1, false)) do
    if line:find(text, 1, true) then
      return i
    end
  end
  error('text not found: ' .. text, 2)
end

local HEADER = '"diff --git a/store/store.go b/store/store.go"'
local COHORT = 'cohort 1 of 1 · store/store.go · Max · medium: 1 use outside, public API changed: Max, no test change'

H.test('the cohort lens appears on the first file header once the graph is built', function()
  root = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(root .. '/store', 'p')
  vim.fn.mkdir(root .. '/cart', 'p')
  git('init', '-q', '-b', 'main')
  vim.fn.writefile({ 'module example.com/shop', '', 'go 1.22' }, root .. '/go.mod')
  vim.fn.writefile({ 'package store', '', '// Max is the most items a cart holds.', 'func Max() int { return 100 }' }, root .. '/store/store.go')
  vim.fn.writefile({ 'package cart', '', 'import "example.com/shop/store"', '', '// Full says whether n items fill a cart.',
    'func Full(n int) bool { return n >= store.Max() }' }, root .. '/cart/cart.go')
  git('add', '.')
  git('commit', '-q', '-m', 'base')
  vim.fn.writefile({ 'package store', '', '// Max is the most items a cart holds.', 'func Max() int { return 200 }' }, root .. '/store/store.go')
  git('commit', '-q', '-am', 'two hundred')
  local review = vim.fn.system({ vim.env.LREVIEW_LSP, 'new', '--title', 'two hundred' }, git('diff', 'HEAD~1', 'HEAD'))
  H.ok(vim.v.shell_error == 0, 'lreview-lsp new: ' .. review)
  review_path = root .. '/pr.review.json'
  vim.fn.writefile(vim.split(review, '\n', { trimempty = true }), review_path)

  require('lreview').setup({ cmd = vim.env.LREVIEW_LSP })
  vim.cmd.edit(vim.fn.fnameescape(review_path))
  review_buf = vim.api.nvim_get_current_buf()
  H.ok(require('lreview').start(review_buf), 'the server did not start')
  if ENABLE then
    vim.lsp.codelens.enable(true, { bufnr = review_buf })
  else
    vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave' }, {
      buffer = review_buf,
      callback = function()
        vim.lsp.codelens.refresh({ bufnr = review_buf })
      end,
    })
  end
  local l = wait_lens('cohort ')
  H.eq(l[1] + 1, line_of(HEADER), 'the cohort lens sits on the first file header')
  H.ok(vim.startswith(l[2], COHORT), ('cohort lens: got %q, want it to start %q'):format(l[2], COHORT))
  H.ok(lens('mark reviewed') ~= nil, 'no mark reviewed lens: ' .. vim.inspect(lenses()))
  H.ok(not l[2]:find('reviewed', 1, true), 'not reviewed yet: ' .. l[2])
end)

H.test('mark reviewed writes the mark into the review; the lens says reviewed', function()
  vim.api.nvim_set_current_buf(review_buf)
  vim.api.nvim_win_set_cursor(0, { line_of(HEADER), 0 })
  -- The header's two lenses make codelens.run ask which: the person picks
  -- "mark reviewed".
  local offered = {}
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local title = opts.format_item(item)
      offered[#offered + 1] = title
      if vim.startswith(title, 'mark reviewed') then
        return on_choice(item)
      end
    end
    on_choice(nil)
  end
  local before = vim.api.nvim_buf_get_changedtick(review_buf)
  vim.lsp.codelens.run()
  local ok = vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_changedtick(review_buf) ~= before
  end, 50)
  vim.ui.select = select
  H.ok(ok, 'the mark was not applied; lenses offered: ' .. vim.inspect(offered))
  vim.cmd('silent write')
  local doc = vim.json.decode(table.concat(vim.fn.readfile(review_path), '\n'))
  local marks = doc['x-lreview-cohorts']
  H.ok(type(marks) == 'table', 'no x-lreview-cohorts in the saved review: ' .. vim.inspect(doc))
  local keys = vim.tbl_keys(marks)
  H.eq(#keys, 1, 'cohorts marked')
  H.ok(type(marks[keys[1]].reviewed) == 'string' and marks[keys[1]].reviewed ~= '', 'the mark: ' .. vim.inspect(marks))
  -- The lenses after the edit, asked as the codelens module asks: Neovim
  -- 0.12's own re-ask after an applied edit sometimes keeps the titles of
  -- the version before (seen here: the server, asked again, answers
  -- reviewed), so its cache is not what this test reads.
  local l
  ok = vim.wait(TIMEOUT, function()
    local res = vim.lsp.buf_request_sync(review_buf, 'textDocument/codeLens',
      { textDocument = vim.lsp.util.make_text_document_params(review_buf) }, TIMEOUT)
    local unmark = false
    l = nil
    for _, r in pairs(res or {}) do
      for _, x in ipairs(r.result or {}) do
        local title = x.command and x.command.title or ''
        if vim.startswith(title, COHORT) then
          l = { x.range.start.line, title }
        end
        unmark = unmark or title == 'unmark reviewed'
      end
    end
    return l and vim.endswith(l[2], ' · reviewed') and unmark
  end, 100)
  H.ok(ok, 'after marking, lens: ' .. vim.inspect(l))
  H.eq(l[1] + 1, line_of(HEADER), 'the lens stays on the header')
end)

H.test('the file header hover names the cohort and its blast radius', function()
  vim.api.nvim_set_current_buf(review_buf)
  vim.api.nvim_win_set_cursor(0, { line_of(HEADER), 5 })
  local wins = vim.api.nvim_list_wins()
  vim.lsp.buf.hover()
  local float
  local ok = vim.wait(TIMEOUT, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if not vim.tbl_contains(wins, w) and vim.api.nvim_win_get_config(w).relative ~= '' then
        float = w
        return true
      end
    end
  end, 50)
  H.ok(ok, 'no hover window')
  local text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), '\n')
  for _, want in ipairs({ 'Cohort 1 of 1', 'store/store.go · Max · medium · reviewed', '1 use outside', 'public API changed: Max', '`example.com/shop/store.Max`', '1 use, 1 outside the cohort' }) do
    H.ok(text:find(want, 1, true), ('hover lacks %q:\n%s'):format(want, text))
  end
  vim.api.nvim_win_close(float, true)
end)
