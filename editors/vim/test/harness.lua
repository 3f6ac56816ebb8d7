-- A small test harness for headless Neovim. A spec file registers tests
-- with H.test(name, fn); H.run(spec) runs them in order, prints one line
-- per test and a final "RESULT <passed> <failed>" line for run.sh, then
-- exits nonzero when a test failed.
local H = {}

local tests = {}

H.dir = vim.fs.dirname(vim.fs.dirname(vim.fs.normalize(debug.getinfo(1, 'S').source:sub(2))))
H.fixtures = vim.fs.joinpath(H.dir, 'test', 'fixtures')

function H.test(name, fn)
  table.insert(tests, { name = name, fn = fn })
end

function H.eq(got, want, what)
  if not vim.deep_equal(got, want) then
    error(('%s: got %s, want %s'):format(what or 'value', vim.inspect(got), vim.inspect(want)), 2)
  end
end

function H.ok(cond, what)
  if not cond then
    error(what or 'assertion failed', 2)
  end
end

--- Writes {lines} to a fresh temporary file named {name} and returns its path.
function H.write_temp(name, lines)
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local path = vim.fs.joinpath(dir, name)
  vim.fn.writefile(lines, path)
  return path
end

--- Copies a fixture into a fresh temporary directory (so edits and the
--- server's workspace stay out of the source tree) and returns the path.
function H.copy_fixture(name)
  return H.write_temp(name, vim.fn.readfile(vim.fs.joinpath(H.fixtures, name)))
end

local function out(line)
  io.stdout:write(line, '\n')
end

function H.run(spec)
  -- -u NONE skips these; a real setup has them on.
  vim.cmd('filetype plugin indent on')
  vim.cmd('syntax on')
  -- Specs that exercise the client turn this back on themselves.
  vim.g.lreview_auto_setup = false
  dofile(spec)
  local passed, failed = 0, 0
  for _, t in ipairs(tests) do
    local ok, err = xpcall(t.fn, debug.traceback)
    if ok then
      passed = passed + 1
      out('ok   ' .. t.name)
    else
      failed = failed + 1
      out('FAIL ' .. t.name)
      for _, line in ipairs(vim.split(tostring(err), '\n')) do
        out('       ' .. line)
      end
    end
    -- Each test starts from a single empty buffer, unless the spec's tests
    -- build on each other (H.share_buffers = true).
    if not H.share_buffers then
      pcall(vim.cmd, 'silent! %bwipeout!')
    end
  end
  out(('RESULT %d %d'):format(passed, failed))
  vim.cmd(failed == 0 and 'qall!' or 'cquit! 1')
end

return H
