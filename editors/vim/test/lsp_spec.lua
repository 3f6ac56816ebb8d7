-- End to end against a real server: run.sh runs this file only when
-- LREVIEW_LSP points to an lreview-lsp binary. The tests build on each
-- other: one buffer, a review whose comment drifted one line (RIGHT 71 is
-- "defer cancel(ctx)"; the snippet is on RIGHT 72), fixed at the end.
local H = require('harness')

H.share_buffers = true

local TIMEOUT = 15000
local LEGEND = { 'diffHeader', 'diffHunk', 'diffAdded', 'diffRemoved', 'diffContext', 'diffNoNewline' }
local ANCHOR_CODES = { ['snippet-mismatch'] = true, ['orphaned-anchor'] = true }

local bufnr

local function client()
  return bufnr and vim.lsp.get_clients({ bufnr = bufnr, name = 'lreview' })[1]
end

local function need_client()
  local c = client()
  H.ok(c and c.initialized, 'the server is not running (see the first failure)')
  return c
end

local function lines()
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

--- 0-based row and column of the first occurrence of {text}. The lines
--- searched are ASCII, so byte and UTF-16 columns agree.
local function find(text)
  for i, line in ipairs(lines()) do
    local col = line:find(text, 1, true)
    if col then
      return i - 1, col - 1
    end
  end
  error('text not found: ' .. text, 2)
end

local function has_line(text)
  return vim.iter(lines()):any(function(line)
    return line:find(text, 1, true) ~= nil
  end)
end

local function request(method, params)
  local c = need_client()
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
  H.ok(responses, method .. ': ' .. tostring(err))
  local res = responses[c.id]
  H.ok(res, method .. ': no answer from lreview')
  local res_err = res.err or res.error
  H.ok(not res_err, method .. ': ' .. vim.inspect(res_err))
  return res.result
end

local function anchor_diagnostics()
  return vim.tbl_filter(function(d)
    return ANCHOR_CODES[d.code] ~= nil
  end, vim.diagnostic.get(bufnr))
end

local function codes()
  return vim.tbl_map(function(d)
    return d.code
  end, vim.diagnostic.get(bufnr))
end

H.test('the server starts for a review buffer', function()
  local lreview = require('lreview')
  lreview.setup({ cmd = vim.env.LREVIEW_LSP, settings = { author = 'tester' } })
  vim.cmd.edit(vim.fn.fnameescape(H.copy_fixture('drift.review.json')))
  bufnr = vim.api.nvim_get_current_buf()
  H.eq(vim.bo[bufnr].filetype, 'lreview', 'filetype')
  -- Returns the running client's id while it is still initializing.
  local id = lreview.start(bufnr)
  H.ok(id, 'no client started')
  -- Stop waiting early when the server exits instead of initializing.
  local c
  vim.wait(TIMEOUT, function()
    c = vim.lsp.get_client_by_id(id)
    return c == nil or c.initialized == true
  end)
  H.ok(c and c.initialized, 'the server did not initialize')
  local legend = vim.tbl_get(client().server_capabilities, 'semanticTokensProvider', 'legend', 'tokenTypes')
  H.eq(legend, LEGEND, 'semantic token legend')
end)

H.test('the drifted comment gets an anchor diagnostic', function()
  need_client()
  H.ok(vim.wait(TIMEOUT, function()
    return #anchor_diagnostics() > 0
  end), 'no snippet-mismatch or orphaned-anchor diagnostic; got ' .. vim.inspect(codes()))
  local d = anchor_diagnostics()[1]
  H.eq(d.source, 'lreview', 'source')
  if d.code == 'snippet-mismatch' then
    local row, col = find('"result, err := calculate(input)"')
    H.eq({ d.lnum, d.col, d.end_lnum }, { row, col, row }, 'range on the snippet value (line, column, end line)')
  end
end)

H.test('semantic tokens: the server classifies patch lines', function()
  need_client()
  local result = request('textDocument/semanticTokens/full', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  })
  H.ok(result and result.data, 'no token data')
  -- Decode the relative encoding: line delta, start delta, length, type, modifiers.
  local tokens, line, start = {}, 0, 0
  for i = 1, #result.data, 5 do
    local dl, ds, len, ty = unpack(result.data, i, i + 3)
    line = line + dl
    start = dl == 0 and start + ds or ds
    tokens[line .. ':' .. start] = { len = len, type = LEGEND[ty + 1] }
  end
  --- The token must cover the element's text, from after the opening quote
  --- to before the closing one (or {len} bytes of it).
  local function check(element, type, len)
    local row, col = find(element)
    local got = tokens[row .. ':' .. (col + 1)]
    H.eq(got, { len = len or #element - 2, type = type }, 'token of ' .. element)
  end
  check('"+    result, err := calculate(input)"', 'diffAdded')
  check('"-    result := calculate(input)"', 'diffRemoved')
  check('"     defer cancel(ctx)"', 'diffContext')
  check('"+++ b/internal/api/handler.go"', 'diffHeader')
  check('"@@ -70,5 +70,6 @@ func Handle', 'diffHunk', #'@@ -70,5 +70,6 @@') -- not the section text
end)

H.test('semantic tokens: an added line is highlighted as @lsp.type.diffAdded.lreview', function()
  need_client()
  local row, col = find('"+    result, err := calculate(input)"')
  col = col + 2
  local groups = {}
  local ok = vim.wait(TIMEOUT, function()
    -- Semantic highlights are placed when the window is drawn.
    vim.cmd('redraw!')
    groups = vim.tbl_map(function(t)
      return t.opts.hl_group
    end, vim.inspect_pos(bufnr, row, col).semantic_tokens)
    return vim.tbl_contains(groups, '@lsp.type.diffAdded.lreview')
  end, 50)
  H.ok(ok, 'highlight groups at the added line: ' .. vim.inspect(groups))
  local at = vim.lsp.semantic_tokens.get_at_pos(bufnr, row, col) or {}
  H.eq(at[1] and at[1].type, 'diffAdded', 'token type at the added line')
  local hl = vim.api.nvim_get_hl(0, { name = '@lsp.type.diffAdded.lreview' })
  H.eq(hl.link, 'Added', 'highlight link')
end)

H.test('hover on start_line shows the anchored lines as a diff', function()
  need_client()
  local row, col = find('"start_line": 71')
  local result = request('textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = row, character = col + #'"start_line": ' },
  })
  H.ok(result and result.contents, 'no hover')
  local text = table.concat(vim.lsp.util.convert_input_to_markdown_lines(result.contents), '\n')
  H.ok(text:find('```diff', 1, true), 'hover without a diff block:\n' .. text)
end)

H.test('the preferred quick fix re-anchors the comment to line 72', function()
  need_client()
  local d = anchor_diagnostics()[1]
  H.ok(d, 'no anchor diagnostic; got ' .. vim.inspect(codes()))
  local lsp_diag = d.user_data and d.user_data.lsp
  H.ok(lsp_diag, 'diagnostic without its LSP form')

  local actions = request('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, triggerKind = 1 },
  }) or {}
  local preferred = vim.tbl_filter(function(a)
    return a.isPreferred
  end, actions)
  local titles = vim.tbl_map(function(a)
    return a.title
  end, actions)
  H.eq(#preferred, 1, 'preferred actions among ' .. vim.inspect(titles))
  H.ok(preferred[1].title:lower():find('anchor', 1, true), 'preferred action: ' .. preferred[1].title)

  -- Apply it the way a user would: code_action on the diagnostic's line.
  local asked
  local select = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    asked = #items
    on_choice(nil)
  end
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      return a.isPreferred == true
    end,
  })
  local changed = vim.wait(TIMEOUT, function()
    return has_line('"start_line": 72')
  end)
  vim.ui.select = select
  H.eq(asked, nil, 'code_action asked the user to choose')
  H.ok(changed, 'start_line not changed:\n' .. table.concat(lines(), '\n'))
  H.ok(not has_line('"start_line": 71'), 'old start_line still there')
end)

H.test('after the fix the anchor diagnostic goes away', function()
  need_client()
  H.ok(has_line('"start_line": 72'), 'the quick fix was not applied (see above)')
  H.ok(vim.wait(TIMEOUT, function()
    return #anchor_diagnostics() == 0
  end), 'diagnostics after the fix: ' .. vim.inspect(codes()))
end)

H.test('setup() again silences a code in the running server, and brings it back', function()
  need_client()
  local lreview = require('lreview')
  local function has_code(code)
    return vim.tbl_contains(codes(), code)
  end
  H.ok(vim.wait(TIMEOUT, function()
    return has_code('hunk-count-mismatch')
  end), 'no hunk-count-mismatch to silence; got ' .. vim.inspect(codes()))
  -- The shape every editor sends: {author, diagnostics = {disabled}}.
  lreview.setup({ cmd = vim.env.LREVIEW_LSP, settings = { author = 'tester', diagnostics = { disabled = { 'hunk-count-mismatch' } } } })
  H.ok(vim.wait(TIMEOUT, function()
    return not has_code('hunk-count-mismatch')
  end), 'hunk-count-mismatch still shown after disabling it: ' .. vim.inspect(codes()))
  H.eq(#vim.lsp.get_clients({ name = 'lreview' }), 1, 'setup() again started a second client')
  lreview.setup({ cmd = vim.env.LREVIEW_LSP, settings = { author = 'tester' } })
  H.ok(vim.wait(TIMEOUT, function()
    return has_code('hunk-count-mismatch')
  end), 'hunk-count-mismatch not back after enabling it: ' .. vim.inspect(codes()))
end)
