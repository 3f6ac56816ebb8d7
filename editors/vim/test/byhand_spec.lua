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

--- Waits for the Markdown buffer of a new, empty body, types text in it
--- and writes it: the review's body then holds text, escaped by the
--- server.
local function write_new_body(what, name, text, json)
  local ok = vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_name(0) == name
  end)
  H.ok(ok, what .. ': no Markdown buffer ' .. name .. ', at ' .. vim.api.nvim_buf_get_name(0))
  H.eq(vim.bo.filetype, 'markdown', what .. ': its filetype')
  H.eq(vim.api.nvim_buf_get_lines(0, 0, -1, false), { '' }, what .. ': the new body')
  vim.api.nvim_buf_set_lines(0, 0, -1, false, text)
  vim.cmd('write')
  H.ok(vim.wait(TIMEOUT, function()
    return table.concat(lines(), '\n'):find(json, 1, true) ~= nil
  end), what .. ': the review holds no ' .. json)
  vim.cmd('close')
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

H.test('"Comment on" from column 1 of a patch line opens the new body as Markdown', function()
  vim.api.nvim_win_set_cursor(0, { row_of('"+    _ = err"'), 0 })
  local before = #lines()
  local seen = apply_action('Comment on RIGHT 73')
  H.ok(vim.tbl_contains(seen, 'Comment on RIGHT 73'), 'actions at column 1: ' .. vim.inspect(seen))
  H.ok(vim.wait(TIMEOUT, function()
    return #lines() > before
  end), 'no comment was added')
  local name = vim.api.nvim_buf_get_name(0):match('^lreview://sample%.review%.json/[^/]+/body%.md$')
  write_new_body('Comment on', name or '(none)', { 'Looks "wrong".' }, [["body": "Looks \"wrong\"."]])
end)

H.test('"Reply to" opens the new reply as Markdown', function()
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_win_set_cursor(0, { row_of('"id": "c1"'), 6 })
  local before = #lines()
  local seen = apply_action('Reply to c1')
  H.ok(vim.tbl_contains(seen, 'Reply to c1'), 'actions on c1: ' .. vim.inspect(seen))
  H.ok(vim.wait(TIMEOUT, function()
    return #lines() > before
  end), 'no reply was added')
  write_new_body('Reply to', 'lreview://sample.review.json/c1/reply 2.md', { 'Fixed.', 'Two lines.' }, [["body": "Fixed.\nTwo lines."]])
end)

-- Completion, accepted as a person does: in a second Neovim driven
-- through its RPC socket with nvim_input (typed keys), so that insert
-- mode, the popup menu and CompleteDone run as they do for a person.
-- Each way Neovim completes: 'omnifunc' (<C-x><C-o>, every version) and
-- vim.lsp.completion.enable() (0.11+). Every kind of item, in an empty
-- and in a filled value; then `lreview-lsp check` on the file saved.

local REVIEW = {
  '{',
  '  "leanreview_review": 1,',
  '  "patch": [',
  '    "diff --git a/internal/api/handler.go b/internal/api/handler.go",',
  '    "--- a/internal/api/handler.go",',
  '    "+++ b/internal/api/handler.go",',
  '    "@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",',
  '    "     ctx := context.Background()",',
  '    "     defer cancel(ctx)",',
  '    "-    result := calculate(input)",',
  '    "+    result, err := calculate(input)",',
  '    "+    _ = err",',
  '    "     return result, nil"',
  '  ],',
  '  "comments": [',
  '    {',
  '      "id": "c1",',
  '      "path": "",',
  '      "side": "",',
  '      "start_line": 7,',
  '      "body": "x",',
  '      ',
  '      "state": "d"',
  '    },',
  '    ',
  '  ]',
  '}',
}

--- A second Neovim with the plugin, editing {file}; its RPC channel.
local function child(file, mode)
  local addr = vim.fn.tempname()
  -- run.sh names the Neovim it runs (a wrapper script, for the builds
  -- under /opt, which v:progpath would skip).
  local job = vim.fn.jobstart({
    vim.env.LREVIEW_NVIM or vim.v.progpath, '--headless', '--clean', '-u', 'NONE', '-i', 'NONE', '--listen', addr,
    '--cmd', 'let &runtimepath = $LREVIEW_VIM_DIR . "," . &runtimepath',
  }, { env = { LREVIEW_VIM_DIR = vim.env.LREVIEW_VIM_DIR } })
  H.ok(job > 0, 'the second Neovim did not start')
  H.ok(vim.wait(TIMEOUT, function()
    return vim.uv.fs_stat(addr) ~= nil
  end), 'the second Neovim never listened')
  local chan = vim.fn.sockconnect('pipe', addr, { rpc = true })
  local setup = [[
    local file, cmd, mode = ...
    require('lreview').setup({ cmd = cmd })
    vim.cmd.edit(vim.fn.fnameescape(file))
    -- No documentation popup: 0.12 renders it with a Markdown parser
    -- this test's Neovim may lack.
    vim.o.completeopt = 'menu,menuone'
    local ok = vim.wait(15000, function()
      local c = vim.lsp.get_clients({ bufnr = 0, name = 'lreview' })[1]
      return c ~= nil and c.initialized == true and vim.bo.omnifunc ~= ''
    end)
    local c = vim.lsp.get_clients({ bufnr = 0, name = 'lreview' })[1]
    if ok and mode == 'native' then
      vim.lsp.completion.enable(true, c.id, 0, { autotrigger = false })
    end
    return ok
  ]]
  H.ok(vim.rpcrequest(chan, 'nvim_exec_lua', setup, { file, vim.env.LREVIEW_LSP, mode }), 'the server did not attach')
  return chan, job
end

--- Puts the cursor after {text} on the line holding {line_text}, then
--- completes: the item labelled {label} is accepted; {after} is typed.
local function complete(chan, mode, line_text, text, label, after)
  local row = vim.rpcrequest(chan, 'nvim_exec_lua', [[
    local line_text, text = ...
    for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
      if l == line_text then
        local col = l:find(text, 1, true)
        vim.api.nvim_win_set_cursor(0, { i, col - 1 + #text })
        -- Normal mode cannot stand past the end of the line: `A` goes there.
        return col - 1 + #text == #l and -i or i
      end
    end
    return 0
  ]], { line_text, text })
  H.ok(row ~= 0, 'no line ' .. line_text)
  local insert = row < 0 and 'A' or 'i'
  local trigger = mode == 'native' and '<Cmd>lua vim.lsp.completion.get()<CR>' or '<C-x><C-o>'
  vim.rpcrequest(chan, 'nvim_input', insert .. trigger)
  local info
  local shown = vim.wait(TIMEOUT, function()
    info = vim.rpcrequest(chan, 'nvim_call_function', 'complete_info', { { 'items', 'selected', 'pum_visible' } })
    return info.pum_visible == 1 and #info.items > 0
  end)
  H.ok(shown, ('%s: no completion menu at %q: %s; %s'):format(label, line_text, vim.inspect(info.pum_visible),
    vim.rpcrequest(chan, 'nvim_exec_lua', 'return vim.api.nvim_get_current_line() .. " | " .. vim.fn.execute("messages")', {})))
  local target
  for i, it in ipairs(info.items) do
    if it.abbr == label then
      target = i - 1
    end
  end
  H.ok(target, ('%s not among %s'):format(label, vim.inspect(vim.tbl_map(function(it)
    return it.abbr
  end, info.items))))
  local keys = string.rep('<C-n>', target - info.selected)
  vim.rpcrequest(chan, 'nvim_input', keys .. '<C-y>')
  vim.wait(TIMEOUT, function()
    return vim.rpcrequest(chan, 'nvim_call_function', 'pumvisible', {}) == 0
  end)
  vim.rpcrequest(chan, 'nvim_input', (after or '') .. '<Esc>')
  vim.wait(TIMEOUT, function()
    return vim.rpcrequest(chan, 'nvim_get_mode').mode == 'n'
  end)
end

local function lines_of(chan)
  return vim.rpcrequest(chan, 'nvim_buf_get_lines', 0, 0, -1, false)
end

local function completion_test(mode)
  return function()
    local file = H.write_temp('complete-' .. mode .. '.review.json', REVIEW)
    local chan, job = child(file, mode)
    complete(chan, mode, '      "path": "",', '"path": "', 'internal/api/handler.go')
    complete(chan, mode, '      "side": "",', '"side": "', 'RIGHT')
    complete(chan, mode, '      "start_line": 7,', '7', '72')
    complete(chan, mode, '      "state": "d"', '"d', 'dismissed')
    complete(chan, mode, '      ', '      ', 'end_line', '73,')
    -- A client that takes snippets gets one: the cursor on the id, the
    -- body its last stop; else the skeleton, the cursor in its body.
    local snippets = vim.rpcrequest(chan, 'nvim_exec_lua', [[
      local c = vim.lsp.get_clients({ bufnr = 0, name = 'lreview' })[1]
      return vim.tbl_get(c.capabilities, 'textDocument', 'completion', 'completionItem', 'snippetSupport') == true
    ]], {})
    complete(chan, mode, '    ', '    ', 'new comment', snippets and '' or 'New.')
    local got = lines_of(chan)
    local text = table.concat(got, '\n')
    for _, want in ipairs({
      '"path": "internal/api/handler.go",',
      '"side": "RIGHT",',
      '"start_line": 72,',
      '"state": "dismissed"',
      '"end_line": 73,',
    }) do
      H.ok(text:find(want, 1, true), ('%s: no %s in\n%s'):format(mode, want, text))
    end
    local ok, decoded = pcall(vim.json.decode, text)
    H.ok(ok, mode .. ': not JSON any more:\n' .. text)
    H.eq(#decoded.comments, 2, mode .. ': comments')
    local new = decoded.comments[2]
    H.eq(new.id, 'c2', mode .. ': the new comment\'s id')
    -- Laid out as c1 is: members at six spaces, not indented twice.
    H.ok(text:find('\n    {\n      "id": "c2",\n', 1, true), mode .. ': the new comment\'s layout:\n' .. text)
    H.eq(new.body, snippets and '' or 'New.', mode .. ': the new comment, typed in its body')
    vim.rpcrequest(chan, 'nvim_command', 'write')
    local res = vim.system({ vim.env.LREVIEW_LSP, 'check', file }, { text = true }):wait()
    H.eq(res.code, 0, mode .. ': check exit status; it said ' .. res.stdout .. res.stderr)
    H.ok(not (res.stdout .. res.stderr):find('error', 1, true), mode .. ': check found errors: ' .. res.stdout .. res.stderr)
    vim.fn.jobstop(job)
  end
end

H.test('completion through omnifunc never breaks the JSON', completion_test('omni'))
if vim.fn.has('nvim-0.11') == 1 then
  H.test('completion through vim.lsp.completion never breaks the JSON', completion_test('native'))
end

-- :LreviewBody: the body as Markdown, written back on :w.
H.test(':LreviewBody edits a body as Markdown and :w writes it back byte for byte', function()
  local body_json = [["Return the error 🚀.\r\n\r\n```suggestion\r\n\t\tline -= \"a\\b\"\r\n```\r\n"]]
  local review = vim.deepcopy(REVIEW)
  review[21] = '      "body": ' .. body_json .. ','
  review[22] = '      "state": "active"'
  review[23] = '    }'
  review[24] = '  ]'
  review[25] = '}'
  review[26], review[27] = nil, nil
  review[18] = '      "path": "internal/api/handler.go",'
  review[19] = '      "side": "RIGHT",'
  review[20] = '      "start_line": 72,'
  vim.cmd.edit(vim.fn.fnameescape(H.write_temp('body.review.json', review)))
  local rb = vim.api.nvim_get_current_buf()
  H.ok(vim.wait(TIMEOUT, function()
    local c = vim.lsp.get_clients({ bufnr = rb, name = 'lreview' })[1]
    return c ~= nil and c.initialized == true and vim.fn.exists(':LreviewBody') == 2
  end), 'the server did not attach')
  local original = vim.api.nvim_buf_get_lines(rb, 0, -1, false)
  vim.api.nvim_win_set_cursor(0, { 21, 10 })
  vim.cmd('LreviewBody')
  local sb = vim.api.nvim_get_current_buf()
  H.ok(sb ~= rb, 'no body buffer opened')
  H.eq(vim.bo[sb].filetype, 'markdown', 'filetype')
  H.eq(vim.bo[sb].fileformat, 'dos', 'fileformat of a CRLF body')
  H.eq(vim.api.nvim_buf_get_lines(sb, 0, -1, false),
    { 'Return the error 🚀.', '', '```suggestion', '\t\tline -= "a\\b"', '```', '' }, 'the body, unescaped')
  vim.cmd('write')
  H.eq(vim.api.nvim_buf_get_lines(rb, 0, -1, false), original, 'saved unchanged, the review')
  H.eq(vim.bo[rb].modified, false, 'the review modified by an unchanged save')
  vim.api.nvim_buf_set_lines(sb, 0, 1, false, { 'Return the *error*.' })
  vim.cmd('write')
  H.eq(vim.bo[sb].modified, false, 'the body buffer after :w')
  local line = vim.api.nvim_buf_get_lines(rb, 20, 21, false)[1]
  H.eq(line, [[      "body": "Return the *error*.\r\n\r\n```suggestion\r\n\t\tline -= \"a\\b\"\r\n```\r\n",]], 'the body line written back')
  local after = vim.api.nvim_buf_get_lines(rb, 0, -1, false)
  after[21] = original[21]
  H.eq(after, original, 'the rest of the review')
  vim.api.nvim_buf_set_lines(sb, 0, 1, false, { 'Return the error 🚀.' })
  vim.cmd('write')
  H.eq(vim.api.nvim_buf_get_lines(rb, 0, -1, false), original, 'written back as it was, the review')
  vim.cmd('bwipeout!')
end)

H.test(':checkhealth lreview says whether Neovim watches files', function()
  vim.cmd('silent checkhealth lreview')
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('bwipeout!')
  local c = vim.lsp.get_clients({ name = 'lreview' })[1]
  local watches = vim.tbl_get(c.capabilities, 'workspace', 'didChangeWatchedFiles', 'dynamicRegistration') == true
  local want = watches and 'Neovim watches files for the server' or 'Neovim watches no files for the server'
  H.ok(report:find(want, 1, true), 'the report lacks "' .. want .. '":\n' .. report)
end)

H.test('source-changed shows within two seconds of :w in the source, file watching or not', function()
  local root = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(root .. '/.git', 'p')
  vim.fn.mkdir(root .. '/internal/api', 'p')
  vim.fn.mkdir(root .. '/reviews', 'p')
  local src = { 'package api' }
  for i = 2, 69 do
    src[#src + 1] = '// line ' .. i
  end
  vim.list_extend(src, {
    '    ctx := context.Background()',
    '    defer cancel(ctx)',
    '    result, err := calculate(input)',
    '    _ = err // 🚀 later',
    '    return result, nil',
    '}',
  })
  local source_path = root .. '/internal/api/handler.go'
  vim.fn.writefile(src, source_path)
  local review_path = root .. '/reviews/handler.review.json'
  vim.fn.writefile(vim.fn.readfile(vim.fs.joinpath(H.fixtures, 'worktree.review.json')), review_path)
  vim.cmd.edit(vim.fn.fnameescape(review_path))
  local rb = vim.api.nvim_get_current_buf()
  require('lreview').start(rb)
  local function changed()
    return vim.iter(vim.diagnostic.get(rb)):any(function(d)
      return d.code == 'source-changed'
    end)
  end
  -- The first publish reads the tree on the side; the second has its
  -- diagnostics: wait until the server has read it, with none changed.
  H.ok(vim.wait(TIMEOUT, function()
    local c = vim.lsp.get_clients({ bufnr = rb, name = 'lreview' })[1]
    return c ~= nil and c.initialized == true and #vim.diagnostic.get(rb) > 0
  end), 'no diagnostics for the review')
  vim.wait(1500, function()
    return false
  end) -- the server's side read and its first look at the file
  H.ok(not changed(), 'source-changed before any change')
  vim.cmd.edit(vim.fn.fnameescape(source_path))
  vim.api.nvim_buf_set_lines(0, 71, 72, false, { '    result, err := calculate(input, opts)' })
  vim.cmd('silent write')
  local saved = vim.uv.hrtime()
  H.ok(vim.wait(TIMEOUT, changed, 20), 'no source-changed after :w in the source')
  local took = (vim.uv.hrtime() - saved) / 1e9
  H.ok(took <= 2, ('source-changed came %.2f s after :w, want within 2 s'):format(took))
  vim.cmd.buffer(rb)
end)

H.test("the help's display set-up turns on inlay hints and the diagnostics' text", function()
  local help = vim.fn.readfile(vim.fs.joinpath(H.dir, 'doc', 'lreview.txt'))
  local code, inside, after_tag = {}, false, false
  for _, l in ipairs(help) do
    if l:find('*lreview-display*', 1, true) then
      after_tag = true
    elseif after_tag and l:match('>lua%s*$') then
      inside = true
    elseif inside and l:match('^<') then
      break
    elseif inside then
      code[#code + 1] = l
    end
  end
  H.ok(#code > 0, 'no Lua block under *lreview-display*')
  assert(loadstring(table.concat(code, '\n')))()
  vim.cmd.edit(vim.fn.fnameescape(H.copy_fixture('sample.review.json')))
  local b = vim.api.nvim_get_current_buf()
  H.ok(vim.wait(TIMEOUT, function()
    return vim.lsp.inlay_hint.is_enabled({ bufnr = b })
  end), 'inlay hints are off in a review buffer')
  H.eq(vim.diagnostic.config().virtual_text, true, 'virtual_text')
  local hints = vim.wait(TIMEOUT, function()
    return #vim.lsp.inlay_hint.get({ bufnr = b }) > 0
  end)
  H.ok(hints, 'no inlay hints from the server')
end)
