-- The review in the code: lreview-lsp attached to the source files of a
-- repository, so that the comments of its reviews show as diagnostics
-- where the code is edited; ]r / [r to the next / previous comment across
-- the files; :LreviewComments for the quickfix list.
--
-- Which reviews are in scope, and which files they comment on, is the
-- server's to know (its one discovery, which sees reviews created and
-- deleted on disk): once a server runs for a repository (the nearest
-- directory holding .git), every file buffer under it is attached, and
-- the server publishes comments on the files that have some. The plugin
-- only decides whether to start one: when a review is opened, or when a
-- source file is read in a repository holding at least one *.review.json
-- (the first found ends the look). The threads the quickfix list shows
-- are the server's data (lreview.threads), never a message read back.
-- vim.g.lreview_sources = false attaches no source buffer.
local M = {}

--- The repository of buf when it is a source file the server should be
--- told of: a file buffer (not a review) under a repository; else nil.
---@param buf integer
---@return string?
function M.source_root(buf)
  if vim.g.lreview_sources == false or vim.g.lreview_sources == 0 then
    return nil
  end
  if not vim.api.nvim_buf_is_valid(buf) or vim.bo[buf].buftype ~= '' or vim.bo[buf].filetype == 'lreview' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(buf)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  local root = vim.fs.root(buf, '.git')
  return root and vim.fs.normalize(root) or nil
end

--- The running lreview client of root, if any.
local function client_of(root)
  for _, c in ipairs(vim.lsp.get_clients({ name = 'lreview' })) do
    if c.root_dir and vim.fs.normalize(c.root_dir) == root then
      return c
    end
  end
end

-- By repository: when a look found no review (vim.uv.now()), so that
-- reading files does not walk a large tree each time; a minute later, or
-- once a review is written, the next look walks again.
local none_since = {}
local LOOK_AGAIN_MS = 60000

--- Whether root holds a review file: the first found ends the walk;
--- .git and node_modules are not walked.
local function has_review(root)
  local since = none_since[root]
  if since and vim.uv.now() - since < LOOK_AGAIN_MS then
    return false
  end
  local found = false
  pcall(function()
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
        found = true
        break
      end
    end
  end)
  none_since[root] = not found and vim.uv.now() or nil
  return found
end

--- Forgets that a repository held no review: one was written.
function M.forget()
  none_since = {}
end

--- Whether buf is a source file to attach now: a server runs for its
--- repository, or the repository holds a review.
---@param buf integer
---@return boolean
function M.wants_server(buf)
  local root = M.source_root(buf)
  return root ~= nil and (client_of(root) ~= nil or has_review(root))
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

--- The quickfix item of a thread (lreview.threads): where it is, and the
--- comment's words.
local function qf_item(st)
  local t = st.thread
  local first = (t.body or ''):match('^%s*([^\n]-)%s*\n') or vim.trim(t.body or '')
  if first == '' then
    first = '(no text yet)'
  end
  local text = ('%s (%s): %s'):format(t.comment, t.author ~= '' and t.author or 'no author', first)
  if #t.replies > 0 then
    text = text .. (' · %d %s'):format(#t.replies, #t.replies == 1 and 'reply' or 'replies')
  end
  if t.outdated then
    text = text .. ' · outdated'
  end
  text = text .. ' · ' .. t.reviewName
  return {
    filename = vim.uri_to_fname(st.uri),
    lnum = st.range.start.line + 1,
    end_lnum = st.range['end'].line + 1,
    text = text,
    type = t.outdated and 'N' or 'I',
    user_data = t,
  }
end

--- The comments of the reviews in scope, every file, in the quickfix
--- list: the server's threads (lreview.threads), in path, then line order.
function M.quickfix()
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'lreview' })[1] or vim.lsp.get_clients({ name = 'lreview' })[1]
  if not client then
    vim.notify('lreview: the server is not running', vim.log.levels.WARN)
    return
  end
  local res = request_sync(client, 'workspace/executeCommand', { command = 'lreview.threads', arguments = {} }, 0)
  if not res or res.err then
    vim.notify('lreview: ' .. (res and res.err and res.err.message or 'no answer'), vim.log.levels.WARN)
    return
  end
  local items = {}
  for _, st in ipairs(res.result or {}) do
    items[#items + 1] = qf_item(st)
  end
  vim.fn.setqflist({}, ' ', { title = 'lreview comments', items = items })
  vim.cmd('botright copen')
end

--- Shows the lreview diagnostics of buf again: Neovim defers a publish
--- that comes in insert mode (update_in_insert off) to the next
--- InsertLeave *in the buffer it is for*, so the comments of a file
--- published while a reply was typed elsewhere stayed hidden there until
--- i<Esc> in it.
function M.reshow(buf)
  if vim.api.nvim_get_mode().mode:sub(1, 1) == 'i' then
    return
  end
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = buf, name = 'lreview' })) do
    local ns = vim.lsp.diagnostic.get_namespace(client.id, false)
    if #vim.diagnostic.get(buf, { namespace = ns }) > 0 then
      vim.diagnostic.show(ns, buf)
    end
  end
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

--- Attaches the source buffers through start (lreview.start), now and
--- when they are read, in group.
---@param group integer
---@param start fun(buf: integer): integer?
function M.setup(group, start)
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    desc = 'Attach lreview-lsp to the source files of a repository',
    callback = function(args)
      if M.wants_server(args.buf) then
        start(args.buf)
      end
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'BufWinEnter', 'ModeChanged' }, {
    group = group,
    desc = 'Show the lreview comments a publish in insert mode left hidden',
    callback = function(args)
      M.reshow(args.buf)
    end,
  })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    pattern = '*.review.json',
    desc = 'A review was written: look for reviews again',
    callback = M.forget,
  })
  vim.api.nvim_create_autocmd('LspAttach', {
    group = group,
    desc = 'Map ]r and [r to the next and previous lreview comment',
    callback = function(ev)
      local client = vim.lsp.get_client_by_id(ev.data.client_id)
      if client and client.name == 'lreview' then
        M.map_keys(ev.buf)
        -- A server just started for a review: the repository's source
        -- buffers read before join it.
        local root = client.root_dir and vim.fs.normalize(client.root_dir)
        for _, b in ipairs(vim.api.nvim_list_bufs()) do
          if vim.api.nvim_buf_is_loaded(b) and M.source_root(b) == root and not vim.lsp.buf_is_attached(b, client.id) then
            vim.lsp.buf_attach_client(b, client.id)
          end
        end
      end
    end,
  })
  vim.api.nvim_create_user_command('LreviewComments', M.quickfix, { desc = 'lreview: the comments in the quickfix list' })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and M.wants_server(buf) then
      start(buf)
    end
  end
end

return M
