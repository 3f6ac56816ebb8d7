-- Plain syntax highlighting (no server): diff colours inside the patch.
local H = require('harness')

--- Position (1-based line and byte column) of the first occurrence of the
--- literal {text} in the current buffer, plus {offset} bytes.
local function pos(text, offset)
  local lnum = vim.fn.search('\\V' .. vim.fn.escape(text, '\\'), 'cw')
  H.ok(lnum > 0, 'text not found: ' .. text)
  local col = vim.fn.stridx(vim.fn.getline(lnum), text) + 1
  return lnum, col + (offset or 0)
end

--- Names of the syntax items at {text} (+ {offset}), outermost first.
local function stack(text, offset)
  local lnum, col = pos(text, offset)
  return vim.tbl_map(function(id)
    return vim.fn.synIDattr(id, 'name')
  end, vim.fn.synstack(lnum, col))
end

--- Name of the innermost syntax item at {text} (+ {offset}).
local function group(text, offset)
  local s = stack(text, offset)
  return s[#s]
end

local function open(fixture)
  vim.cmd.edit(vim.fn.fnameescape(vim.fs.joinpath(H.fixtures, fixture)))
  H.eq(vim.b.current_syntax, 'lreview', 'b:current_syntax')
end

H.test('JSON highlighting is still there', function()
  open('sample.review.json')
  H.eq(group('"title"', 1), 'jsonKeyword', 'key')
  H.eq(group('"auth refactor"', 1), 'jsonString', 'string value')
  H.eq(group('72'), 'jsonNumber', 'number')
end)

H.test('patch array elements get diff groups', function()
  open('sample.review.json')
  local cases = {
    { 'diff --git a/internal', 'lreviewDiffHeader' },
    { 'index 3b18e51', 'lreviewDiffHeader' },
    { '--- a/internal', 'lreviewDiffHeader' },
    { '+++ b/internal', 'lreviewDiffHeader' },
    { '@@ -70,5 +70,6 @@', 'lreviewDiffHunk' },
    { '@@ -70,5 +70,6 @@', 'lreviewDiffHunk', 16 }, -- the closing @@
    { '     ctx := context', 'lreviewDiffContext' },
    { '     ctx := context', 'lreviewDiffContext', 10 },
    { '-    result := calculate', 'lreviewDiffRemoved' },
    { '-    result := calculate', 'lreviewDiffRemoved', 20 },
    { '+    result, err', 'lreviewDiffAdded' },
    { '+    result, err', 'lreviewDiffAdded', 12 },
    { '+    _ = err', 'lreviewDiffAdded' },
    { '@@ -1,2 +1,2 @@', 'lreviewDiffHunk' },
    { ' CREATE TABLE', 'lreviewDiffContext' },
    { '\\\\ No newline', 'lreviewDiffNoNewline' },
    { '\\\\ No newline', 'lreviewDiffNoNewline', 12 },
  }
  for _, c in ipairs(cases) do
    H.eq(group(c[1], c[3]), c[2], ('group at %q+%d'):format(c[1], c[3] or 0))
  end
end)

H.test('quotes of patch elements are not part of the diff line', function()
  open('sample.review.json')
  H.eq(group('"+    result, err'), 'jsonQuote', 'opening quote')
  H.eq(group('_ = err"', 7), 'jsonQuote', 'closing quote')
end)

H.test('hunk section text is not the hunk', function()
  open('sample.review.json')
  local s = stack('func Handle(input')
  H.ok(s[#s] ~= 'lreviewDiffHunk', 'innermost is ' .. s[#s])
  H.eq(s[#s], 'lreviewDiffHunkLine', 'innermost group')
end)

H.test('a "---" line without a following "+++" is a removed line', function()
  open('sample.review.json')
  H.eq(group('--- old table comment'), 'lreviewDiffRemoved', 'removed "-- " line')
  H.eq(group('+-- new table comment'), 'lreviewDiffAdded', 'added "-- " line')
  H.eq(group('--- a/db/schema.sql'), 'lreviewDiffHeader', 'real header')
  H.eq(group('+++ b/db/schema.sql'), 'lreviewDiffHeader', 'real header')
end)

H.test('JSON escapes inside a patch line keep its group', function()
  open('sample.review.json')
  local line = [[+\tlog.Printf(\"caf\u00e9 \\\"%s\\\"\", name) // [ok]"]]
  local lnum, col = pos(line)
  for i = 0, #line - 2 do
    local s = vim.fn.synstack(lnum, col + i)
    local name = vim.fn.synIDattr(s[#s], 'name')
    H.eq(name, 'lreviewDiffAdded', ('byte %d (%q)'):format(i, line:sub(i + 1, i + 1)))
  end
  H.eq(group(line, #line - 1), 'jsonQuote', 'closing quote')
  -- The ']' inside that string did not close the patch array.
  H.eq(group(' CREATE TABLE'), 'lreviewDiffContext', 'line after the escapes')
end)

H.test('strings outside the patch array get no diff group', function()
  open('sample.review.json')
  local cases = {
    { '+ looks like an added line', 0 }, -- a comment body
    { '- not a removed line', 0 }, -- a reply body
    { '"result, err := calculate(input)"', 1 }, -- the snippet
  }
  for _, c in ipairs(cases) do
    local s = stack(c[1], c[2])
    for _, name in ipairs(s) do
      H.ok(not name:match('^lreview'), ('%q is inside %s'):format(c[1], name))
    end
    H.eq(s[#s], 'jsonString', 'group of ' .. c[1])
  end
  H.eq(group('"comments"', 1), 'jsonKeyword', 'key after the patch')
end)

H.test('diff groups resolve to diff colours', function()
  open('sample.review.json')
  local function resolved(text)
    local lnum, col = pos(text)
    return vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.synID(lnum, col, 1)), 'name')
  end
  H.eq(resolved('+    result, err'), 'Added', 'added')
  H.eq(resolved('-    result := calculate'), 'Removed', 'removed')
  H.eq(resolved('@@ -70,5'), 'Title', 'hunk')
  H.eq(resolved('diff --git a/internal'), 'PreProc', 'header')
  H.eq(resolved('\\\\ No newline'), 'Comment', 'no newline')
end)

H.test('single-string patch: every embedded line gets its group', function()
  open('string-form.review.json')
  local cases = {
    { 'diff --git a/a.txt', 'lreviewSegHeader' },
    { '--- a/a.txt', 'lreviewSegHeader' },
    { '+++ b/a.txt', 'lreviewSegHeader' },
    { '@@ -1,2 +1,2 @@', 'lreviewSegHunk' },
    { 'intro', 'lreviewSegHunkLine' },
    { '-old \\"x\\"', 'lreviewSegRemoved' },
    { '-old \\"x\\"', 'lreviewSegRemoved', 8 },
    { '+new \\\\n not', 'lreviewSegAdded' },
    { '+new \\\\n not', 'lreviewSegAdded', 9 }, -- an escaped backslash, then n
    { ' same', 'lreviewSegContext' },
    { '\\\\ No newline', 'lreviewSegNoNewline' },
    { '\\n+++', 'lreviewSegNewline' },
  }
  for _, c in ipairs(cases) do
    H.eq(group(c[1], c[3]), c[2], ('group at %q+%d'):format(c[1], c[3] or 0))
  end
end)

H.test('minified review on one line', function()
  vim.cmd.edit(vim.fn.fnameescape(H.copy_fixture('minified.json')))
  H.eq(group('"+y"', 1), 'lreviewDiffAdded', 'added')
  H.eq(group('"-x"', 1), 'lreviewDiffRemoved', 'removed')
  H.eq(group('"@@ -1 +1 @@"', 1), 'lreviewDiffHunk', 'hunk')
  H.eq(group('"+++ b/a"', 1), 'lreviewDiffHeader', 'header')
  H.eq(group('"comments"', 1), 'jsonKeyword', 'key after the patch')
end)

H.test('a long patch: lines far from its start still get diff groups', function()
  -- Far more lines than the syntax sync looks back, so only syncing on the
  -- lines themselves can tell that the middle is inside the patch.
  local lines = { '{', '  "leanreview_review": 1,', '  "patch": [', '    "diff --git a/a b/a",' }
  for i = 1, 3000 do
    vim.list_extend(lines, { ('    " same %d",'):format(i), ('    "-old %d",'):format(i), ('    "+new %d",'):format(i) })
  end
  vim.list_extend(lines, {
    '    "+last"',
    '  ],',
    '  "comments": [',
    '    { "path": "a", "side": "RIGHT", "start_line": 1, "body": "+ not added" }',
    '  ]',
    '}',
  })
  vim.cmd.edit(vim.fn.fnameescape(H.write_temp('long.review.json', lines)))
  -- Ask for the end first, then the middle, as a jump would.
  H.eq(group('+ not added'), 'jsonString', 'comment body after the patch')
  H.eq(group('-old 2500"'), 'lreviewDiffRemoved', 'removed line in the middle')
  H.eq(group('+new 1500"'), 'lreviewDiffAdded', 'added line in the middle')
  H.eq(group(' same 2999"'), 'lreviewDiffContext', 'context line near the end')
end)
