-- Buffer options of the lreview filetype.
local H = require('harness')

local function open_review()
  vim.cmd.edit(vim.fn.fnameescape(H.copy_fixture('sample.review.json')))
  H.eq(vim.bo.filetype, 'lreview', 'filetype')
end

H.test('two-space indentation, no comment string', function()
  open_review()
  H.eq(vim.bo.shiftwidth, 2, 'shiftwidth')
  H.eq(vim.bo.softtabstop, 2, 'softtabstop')
  H.eq(vim.bo.expandtab, true, 'expandtab')
  H.eq(vim.bo.commentstring, '', 'commentstring')
  H.eq(vim.bo.comments, '', 'comments')
  H.eq(vim.b.did_ftplugin, 1, 'b:did_ftplugin')
end)

H.test('JSON indentation rules apply', function()
  open_review()
  H.eq(vim.bo.indentexpr, 'GetJSONIndent(v:lnum)', 'indentexpr')
end)

H.test('b:undo_ftplugin restores the options', function()
  open_review()
  local undo = vim.b.undo_ftplugin
  H.ok(type(undo) == 'string' and undo:find('shiftwidth<', 1, true), 'b:undo_ftplugin: ' .. vim.inspect(undo))
  vim.bo.filetype = 'text' -- runs b:undo_ftplugin
  H.eq(vim.bo.shiftwidth, vim.go.shiftwidth, 'shiftwidth after undo')
  H.eq(vim.bo.expandtab, vim.go.expandtab, 'expandtab after undo')
  H.eq(vim.bo.softtabstop, vim.go.softtabstop, 'softtabstop after undo')
end)
