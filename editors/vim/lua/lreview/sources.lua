-- The review in the code: lreview-lsp attached to the source files the
-- reviews of a repository name, so that their comments show as
-- diagnostics where the code is edited; ]r / [r to the next / previous
-- comment across the files; :LreviewComments for the quickfix list.
--
-- A source buffer is attached when its path under its repository (the
-- nearest directory holding .git) is a file of a review's patch, among the
-- first 64 *.review.json files of the repository (.git and node_modules
-- skipped), or of an open review buffer. Any other buffer is left alone.
local M = {}

local MAX_REVIEWS = 64

-- By repository root: the review files found and the paths they name,
-- kept until a review is written or opened (M.forget).
local by_root = {}

--- The first MAX_REVIEWS review files under root.
local function review_files(root)
  local out = {}
  local ok = pcall(function()
    for name, kind in
      vim.fs.dir(root, {
        depth = 32,
        skip = function(dir)
          local base = vim.fs.basename(dir)
          return base ~= '.git' and base ~= 'node_modules'
        end,
      })
    do
      if kind == 'file' and name:match('%.review%.json$') then
        out[#out + 1] = vim.fs.joinpath(root, name)
        if #out >= MAX_REVIEWS then
          break
        end
      end
    end
  end)
  return ok and out or {}
end

--- Adds to set the paths a review's text names: its patch's files and its
--- comments' paths.
local function add_paths(set, text)
  local ok, review = pcall(vim.json.decode, text)
  if not ok or type(review) ~= 'table' then
    return
  end
  local patch = review.patch
  if type(patch) == 'string' then
    patch = vim.split(patch, '\n', { plain = true })
  end
  if type(patch) == 'table' then
    for _, line in ipairs(patch) do
      if type(line) == 'string' then
        local name = line:match('^%+%+%+ b/(.-)%s*$') or line:match('^%+%+%+ (.-)%s*$')
        if name and name ~= '/dev/null' then
          set[name] = true
        end
      end
    end
  end
  if type(review.comments) == 'table' then
    for _, c in ipairs(review.comments) do
      if type(c) == 'table' and type(c.path) == 'string' then
        set[c.path] = true
      end
    end
  end
end

--- The paths the reviews of root name, cached.
local function reviewed_paths(root)
  local known = by_root[root]
  if known then
    return known
  end
  known = {}
  for _, file in ipairs(review_files(root)) do
    local ok, lines = pcall(vim.fn.readfile, file, 'b')
    if ok then
      add_paths(known, table.concat(lines, '\n'))
    end
  end
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'lreview' then
      add_paths(known, table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))
    end
  end
  by_root[root] = known
  return known
end

--- Forgets what was found: a review was written or opened.
function M.forget()
  by_root = {}
end

--- Whether buf is a source file some review of its repository names.
---@param buf integer
---@return boolean
function M.is_reviewed(buf)
  if not vim.api.nvim_buf_is_valid(buf) or vim.bo[buf].buftype ~= '' or vim.bo[buf].filetype == 'lreview' then
    return false
  end
  local name = vim.api.nvim_buf_get_name(buf)
  if name == '' then
    return false
  end
  local root = vim.fs.root(buf, '.git')
  if not root then
    return false
  end
  name = vim.fs.normalize(vim.fn.fnamemodify(name, ':p'))
  root = vim.fs.normalize(root)
  if name:sub(1, #root + 1) ~= root .. '/' then
    return false
  end
  return reviewed_paths(root)[name:sub(#root + 2)] == true
end

local function request_sync(client, method, params, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, 5000, bufnr)
  end
  return client.request_sync(method, params, 5000, bufnr)
end

--- Moves to the next (forward) or previous comment of the reviews in
--- scope, across files, wrapping around (the server's
--- lreview.nextComment / lreview.previousComment).
---@param forward boolean
function M.move(forward)
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'lreview' })[1] or vim.lsp.get_clients({ name = 'lreview' })[1]
  if not client then
    vim.notify('lreview: the server is not running', vim.log.levels.WARN)
    return
  end
  local enc = client.offset_encoding or 'utf-16'
  local pos = vim.lsp.util.make_position_params(0, enc).position
  local res = request_sync(client, 'workspace/executeCommand', {
    command = forward and 'lreview.nextComment' or 'lreview.previousComment',
    arguments = { { uri = vim.uri_from_bufnr(0), position = pos } },
  }, 0)
  if not res or res.err then
    vim.notify('lreview: ' .. (res and res.err and res.err.message or 'no answer'), vim.log.levels.WARN)
    return
  end
  if res.result == nil or res.result == vim.NIL then
    vim.notify('lreview: no comments', vim.log.levels.INFO)
    return
  end
  vim.cmd("normal! m'")
  vim.lsp.util.show_document(res.result, enc, { focus = true })
end

--- The comments of the reviews in scope, every file, in the quickfix list.
function M.quickfix()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(nil)) do
    if d.source == 'lreview' and d.code == 'review-comment' then
      found[#found + 1] = d
    end
  end
  local items = vim.diagnostic.toqflist(found)
  table.sort(items, function(a, b)
    local fa, fb = vim.api.nvim_buf_get_name(a.bufnr), vim.api.nvim_buf_get_name(b.bufnr)
    if fa ~= fb then
      return fa < fb
    end
    return a.lnum < b.lnum
  end)
  vim.fn.setqflist({}, ' ', { title = 'lreview comments', items = items })
  vim.cmd('botright copen')
end

--- Maps ]r and [r in buf, unless the user mapped them.
function M.map_keys(buf)
  for lhs, forward in pairs({ [']r'] = true, ['[r'] = false }) do
    if vim.fn.maparg(lhs, 'n') == '' then
      vim.keymap.set('n', lhs, function()
        M.move(forward)
      end, { buffer = buf, desc = forward and 'lreview: next comment' or 'lreview: previous comment' })
    end
  end
end

--- Attaches reviewed source buffers through start (lreview.start), now
--- and when they are read, in group.
---@param group integer
---@param start fun(buf: integer): integer?
function M.setup(group, start)
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    desc = 'Attach lreview-lsp to reviewed source files',
    callback = function(args)
      if M.is_reviewed(args.buf) then
        start(args.buf)
      end
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufWritePost', 'FileType' }, {
    group = group,
    pattern = { '*.review.json', 'lreview' },
    desc = 'Find the reviewed source files again',
    callback = M.forget,
  })
  vim.api.nvim_create_autocmd('LspAttach', {
    group = group,
    desc = 'Map ]r and [r to the next and previous lreview comment',
    callback = function(ev)
      local client = vim.lsp.get_client_by_id(ev.data.client_id)
      if client and client.name == 'lreview' then
        M.map_keys(ev.buf)
      end
    end,
  })
  vim.api.nvim_create_user_command('LreviewComments', M.quickfix, { desc = 'lreview: the comments in the quickfix list' })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and M.is_reviewed(buf) then
      start(buf)
    end
  end
end

return M
