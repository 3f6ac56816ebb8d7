-- Run by pack_install.sh in the Neovim that installed the plugin with
-- vim.pack.add: writes "ok …" or "FAIL …" per check, then DONE, to the
-- file $LREVIEW_RESULTS (Neovim's own progress messages go elsewhere).
local results = assert(io.open(vim.env.LREVIEW_RESULTS, 'w'))
local function check(ok, what, detail)
  results:write((ok and 'ok   ' or 'FAIL ') .. what .. ((not ok and detail) and (': ' .. detail) or '') .. '\n')
end

local ok, err = pcall(function()
  local plugins = vim.pack.get()
  local found
  for _, p in ipairs(plugins) do
    if p.spec.name == 'lreview' then
      found = p
    end
  end
  check(found ~= nil and found.active, 'vim.pack.add installed and loaded lreview-lsp', vim.inspect(plugins))

  local bin = vim.fs.joinpath(vim.env.GOBIN, 'lreview-lsp')
  check(vim.fn.executable(bin) == 1, 'the build step installed the server into GOBIN', bin)

  vim.cmd.edit(vim.fn.fnameescape(vim.env.LREVIEW_REVIEW))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == 'lreview', 'the review is detected as lreview', vim.bo[buf].filetype)
  local got = vim.wait(60000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 100)
  local codes = vim.tbl_map(function(d)
    return tostring(d.code)
  end, vim.diagnostic.get(buf))
  check(got and vim.tbl_contains(codes, 'snippet-mismatch'), 'the server published the drift diagnostic', vim.inspect(codes))
  local clients = vim.lsp.get_clients({ bufnr = buf, name = 'lreview' })
  check(#clients == 1 and clients[1].config.cmd[1] == bin, 'the client runs the installed server', vim.inspect(clients[1] and clients[1].config.cmd))

  vim.cmd('checkhealth lreview')
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(report:find('server: ' .. bin .. ' --stdio (found in ', 1, true) ~= nil, ':checkhealth lreview says which server and how it was found', report)
  check(report:find('version: lreview%-lsp %S+') ~= nil, ':checkhealth lreview says its version', report)
end)
if not ok then
  check(false, 'the checks ran', tostring(err))
end
results:write('DONE\n')
results:close()
vim.cmd('qall!')
