-- The help file: tags generate without errors and every |link| resolves.
local H = require('harness')

--- Copies doc/ to a temporary runtime directory (helptags writes a tags
--- file next to the help file; the source tree stays clean) and adds it
--- to 'runtimepath'.
local function doc_runtime()
  local rt = vim.fn.tempname()
  vim.fn.mkdir(vim.fs.joinpath(rt, 'doc'), 'p')
  local src = vim.fs.joinpath(H.dir, 'doc', 'lreview.txt')
  vim.fn.writefile(vim.fn.readfile(src), vim.fs.joinpath(rt, 'doc', 'lreview.txt'))
  vim.cmd.helptags(vim.fn.fnameescape(vim.fs.joinpath(rt, 'doc')))
  vim.opt.runtimepath:prepend(rt)
  return rt
end

H.test('helptags generates the documented tags', function()
  local rt = doc_runtime()
  local tags = {}
  for _, line in ipairs(vim.fn.readfile(vim.fs.joinpath(rt, 'doc', 'tags'))) do
    tags[vim.split(line, '\t')[1]] = true
  end
  for _, tag in ipairs({ 'lreview', 'lreview.txt', 'lreview.setup()', 'g:lreview_auto_setup', 'lreview-settings', 'lreview-health', 'lreview-install' }) do
    H.ok(tags[tag], 'missing tag ' .. tag)
  end
end)

H.test('every |link| in the help file resolves', function()
  doc_runtime()
  -- Read the tags files rather than run :help, which needs the vimdoc
  -- tree-sitter parser that minimal Neovim builds lack.
  local tags = {}
  for _, file in ipairs(vim.api.nvim_get_runtime_file('doc/tags', true)) do
    for _, line in ipairs(vim.fn.readfile(file)) do
      tags[vim.split(line, '\t')[1]] = true
    end
  end
  local text = table.concat(vim.fn.readfile(vim.fs.joinpath(H.dir, 'doc', 'lreview.txt')), '\n')
  local links = 0
  for link in text:gmatch('|([^|%s]+)|') do
    links = links + 1
    H.ok(tags[link], ('|%s| does not resolve'):format(link))
  end
  H.ok(links > 10, 'links found: ' .. links)
end)
