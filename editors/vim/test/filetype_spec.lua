-- Filetype detection: by name and by content.
local H = require('harness')

local function ft_of(path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  return vim.bo.filetype
end

H.test('vim.filetype.match: *.review.json is lreview', function()
  H.eq(vim.filetype.match({ filename = 'x.review.json' }), 'lreview', 'x.review.json')
  H.eq(vim.filetype.match({ filename = '/a/b/pr-12.review.json' }), 'lreview', 'full path')
  H.eq(vim.filetype.match({ filename = 'x.json' }), 'json', 'x.json without content')
end)

H.test('editing x.review.json sets lreview, even when its content is not a review', function()
  H.eq(ft_of(H.write_temp('x.review.json', { '{}' })), 'lreview', 'filetype')
end)

H.test('a .json file whose first key is leanreview_review is lreview', function()
  H.eq(ft_of(H.copy_fixture('by-content.json')), 'lreview', 'key on the third line')
end)

H.test('a minified review on one line is lreview', function()
  H.eq(ft_of(H.copy_fixture('minified.json')), 'lreview', 'filetype')
end)

H.test('plain JSON stays json', function()
  H.eq(ft_of(H.copy_fixture('plain.json')), 'json', 'leanreview_review not first')
  H.eq(ft_of(H.write_temp('package.json', { '{"name": "x"}' })), 'json', 'package.json')
end)

H.test('a new, empty .json file stays json', function()
  H.eq(ft_of(vim.fn.tempname() .. '.json'), 'json', 'filetype')
end)

--- Filetype of a .json buffer holding {lines}, as Neovim's detection sees it.
local function ft_of_lines(lines)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local ft = vim.filetype.match({ buf = buf, filename = 'x.json' })
  vim.api.nvim_buf_delete(buf, { force = true })
  return ft
end

H.test('content detection: first key, first lines only', function()
  local long = '{"leanreview_review":1,"patch":["' .. string.rep('x', 100000) .. '"]}'
  local cases = {
    { { '{', '  "leanreview_review": 1' }, 'lreview' },
    { { '{"leanreview_review":1}' }, 'lreview' },
    { { '', '', '  {  ', '', '"leanreview_review" : 1' }, 'lreview' },
    { { '\239\187\191{"leanreview_review":1}' }, 'lreview' }, -- UTF-8 BOM
    { { long }, 'lreview' },
    { { '{', '  "title": "x",', '  "leanreview_review": 1' }, 'json' },
    { { '[{"leanreview_review":1}]' }, 'json' },
    { { '{"leanreview_reviews":1}' }, 'json' },
    { { '"leanreview_review"' }, 'json' },
    { { '' }, 'json' },
  }
  for _, c in ipairs(cases) do
    H.eq(ft_of_lines(c[1]), c[2], vim.inspect(c[1]):sub(1, 80))
  end
end)
