-- Installing the server for a plugin manager's build step (build.lua at
-- the repository's root): `go install ./cmd/lreview-lsp` in the clone the
-- plugin manager made, where Go is installed; otherwise where to get a
-- release binary. Loaded with dofile, before the plugin is on 'runtimepath'.
local M = {}

M.releases = 'https://github.com/leanreview/lreview-lsp/releases'

--- Says msg the way a build step is heard: a notification, which
--- lazy.nvim shows in its window and headless Neovim prints.
local function say(msg, level)
  vim.notify('lreview: ' .. msg, level or vim.log.levels.INFO)
end

--- Where `go install` puts the binary.
local function go_bin(go)
  local r = vim.system({ go, 'env', 'GOBIN', 'GOPATH' }, { text = true }):wait()
  local lines = vim.split(vim.trim(r.stdout or ''), '\n')
  if lines[1] and lines[1] ~= '' then
    return lines[1]
  end
  local gopath = vim.split(lines[2] or '', vim.fn.has('win32') == 1 and ';' or ':', { plain = true })[1]
  return vim.fs.joinpath(gopath, 'bin')
end

--- run installs the server from the clone at root; true when it did.
---@param root string the repository's root (holding go.mod)
---@return boolean
function M.run(root)
  local go = vim.fn.exepath('go')
  local found = vim.fn.exepath('lreview-lsp')
  if go == '' and found ~= '' then
    -- Installed already (a release binary, a package): nothing to build.
    local v = vim.system({ found, 'version' }, { text = true }):wait()
    say(('Go is not installed; using %s, on PATH: %s'):format(found, vim.trim(v.stdout or '')))
    return true
  end
  if go == '' then
    say(
      'Go is not installed, so the language server was not built. Download lreview-lsp for your '
        .. 'system from '
        .. M.releases
        .. ' (an archive per platform, with checksums.txt), put lreview-lsp on your PATH, '
        .. "or point require('lreview').setup{ cmd = ... } at it. Diff highlighting works without it.",
      vim.log.levels.WARN
    )
    return false
  end
  say('installing lreview-lsp with ' .. go .. ' (go install ./cmd/lreview-lsp)')
  -- -buildvcs=auto: the commit is stamped into the binary even where
  -- GOFLAGS turns it off, so that `lreview-lsp version` says what was built.
  -- -trimpath and CGO_ENABLED=0, as the release binaries are built: the
  -- clone's folder is not written into the binary, the binary needs no C
  -- library, and the packages compiled for another clone (or make dist)
  -- are reused.
  local r = vim.system(
    { go, 'install', '-trimpath', '-buildvcs=auto', './cmd/lreview-lsp' },
    { cwd = root, text = true, env = { CGO_ENABLED = '0' } }
  ):wait()
  if r.code ~= 0 then
    say('go install failed:\n' .. vim.trim((r.stderr or '') .. (r.stdout or '')), vim.log.levels.ERROR)
    return false
  end
  local bin = vim.fs.joinpath(go_bin(go), vim.fn.has('win32') == 1 and 'lreview-lsp.exe' or 'lreview-lsp')
  local v = vim.system({ bin, 'version' }, { text = true }):wait()
  say(('installed %s: %s'):format(bin, vim.trim(v.stdout or '')))
  return true
end

return M
