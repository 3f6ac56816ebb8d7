-- The Neovim client without a server: finding the binary, telling the user
-- when it is missing, :checkhealth, highlight links. The environment is
-- cleared so that no real lreview-lsp is found.
local H = require('harness')

local empty_dir = vim.fn.tempname()
vim.fn.mkdir(empty_dir, 'p')
vim.env.PATH = empty_dir
vim.env.HOME = empty_dir
vim.env.GOBIN = nil
vim.env.GOPATH = nil

--- A directory holding a fake lreview-lsp that only answers `version`.
local function fake_server_dir()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local exe = vim.fs.joinpath(dir, 'lreview-lsp')
  vim.fn.writefile({ '#!/bin/sh', 'echo "lreview-lsp 0.1.0-test"' }, exe)
  vim.fn.setfperm(exe, 'rwxr-xr-x')
  return dir, exe
end

--- Loads the plugin afresh: a new module and plugin/lreview.lua re-sourced.
local function fresh()
  for _, client in ipairs(vim.lsp.get_clients({ name = 'lreview' })) do
    vim.lsp.stop_client(client.id, true)
  end
  package.loaded['lreview'] = nil
  package.loaded['lreview.health'] = nil
  vim.g.loaded_lreview = nil
  vim.cmd('runtime! plugin/lreview.lua')
  return require('lreview')
end

--- Replaces vim.notify while {fn} runs and returns the notifications.
local function capture_notify(fn)
  local seen = {}
  local orig = vim.notify
  vim.notify = function(msg, level, opts)
    table.insert(seen, { msg = msg, level = level, opts = opts })
  end
  local ok, err = pcall(fn)
  vim.notify = orig
  if not ok then
    error(err, 0)
  end
  return seen
end

local function edit_review(name)
  vim.cmd.edit(vim.fn.fnameescape(H.write_temp(name or 'x.review.json', { '{"leanreview_review": 1}' })))
  H.eq(vim.bo.filetype, 'lreview', 'filetype')
end

local tokens = { 'diffHeader', 'diffHunk', 'diffAdded', 'diffRemoved', 'diffContext', 'diffNoNewline' }

H.test('semantic token highlight links exist after setup', function()
  local lreview = fresh()
  capture_notify(function()
    lreview.setup()
  end)
  local want = {
    diffHeader = 'PreProc',
    diffHunk = 'Title',
    diffAdded = 'Added',
    diffRemoved = 'Removed',
    diffContext = '@none',
    diffNoNewline = 'Comment',
  }
  for _, token in ipairs(tokens) do
    local hl = vim.api.nvim_get_hl(0, { name = '@lsp.type.' .. token .. '.lreview' })
    H.eq(hl.link, want[token], token)
  end
end)

H.test('highlight links are defaults: user links win and survive :colorscheme', function()
  local lreview = fresh()
  vim.api.nvim_set_hl(0, '@lsp.type.diffAdded.lreview', { link = 'DiffAdd' })
  lreview.define_highlights()
  H.eq(vim.api.nvim_get_hl(0, { name = '@lsp.type.diffAdded.lreview' }).link, 'DiffAdd', 'user link')
  vim.cmd('highlight clear @lsp.type.diffAdded.lreview')
  vim.cmd.colorscheme('default')
  H.eq(vim.api.nvim_get_hl(0, { name = '@lsp.type.diffAdded.lreview' }).link, 'Added', 'after :colorscheme')
end)

H.test('setup() with the server missing warns once, clearly, without an error', function()
  local lreview = fresh()
  local seen = capture_notify(function()
    lreview.setup({ settings = { author = 'me' } })
    edit_review('a.review.json')
    edit_review('b.review.json')
    lreview.start()
  end)
  H.eq(#seen, 1, 'notifications: ' .. vim.inspect(seen))
  H.eq(seen[1].level, vim.log.levels.WARN, 'level')
  H.ok(seen[1].msg:find('`lreview-lsp` was not found on PATH', 1, true), 'names the binary: ' .. seen[1].msg)
  local checkout = vim.fn.fnamemodify(vim.env.LREVIEW_VIM_DIR, ':p:h:h:h')
  H.eq(lreview.checkout_dir(), checkout, 'checkout_dir')
  local from_checkout = 'cd ' .. vim.fn.fnamemodify(checkout, ':~') .. ' && go install ./cmd/lreview-lsp'
  H.ok(seen[1].msg:find(from_checkout, 1, true), 'shows the install command from the checkout: ' .. seen[1].msg)
  H.ok(seen[1].msg:find('Go 1.26 or newer', 1, true), 'states the Go version: ' .. seen[1].msg)
  local published = seen[1].msg:find(lreview.published_install_command, 1, true)
  H.ok(published and published > seen[1].msg:find(from_checkout, 1, true), 'published command second: ' .. seen[1].msg)
  H.ok(seen[1].msg:find('once the module is published', 1, true), 'marks the published command: ' .. seen[1].msg)
  H.ok(not seen[1].msg:find('stack traceback', 1, true), 'no stack trace')
  H.eq(#vim.lsp.get_clients({ name = 'lreview' }), 0, 'clients')
end)

H.test('checkout_dir() sees through a pack/*/start symbolic link, and is nil outside a checkout', function()
  local checkout = vim.fn.fnamemodify(vim.env.LREVIEW_VIM_DIR, ':p:h:h:h')
  local pack = vim.fn.tempname()
  vim.fn.mkdir(pack, 'p')
  vim.uv.fs_symlink(vim.env.LREVIEW_VIM_DIR, vim.fs.joinpath(pack, 'lreview'))
  local linked = dofile(vim.fs.joinpath(pack, 'lreview', 'lua', 'lreview', 'init.lua'))
  H.eq(linked.checkout_dir(), checkout, 'through the link')
  -- A copy of the plugin alone (no go.mod above it): the steps still say
  -- what to run, without a directory.
  local copy = vim.fn.tempname()
  vim.fn.mkdir(vim.fs.joinpath(copy, 'lua', 'lreview'), 'p')
  local init = vim.fs.joinpath(copy, 'lua', 'lreview', 'init.lua')
  vim.fn.writefile(vim.fn.readfile(vim.fs.joinpath(vim.env.LREVIEW_VIM_DIR, 'lua', 'lreview', 'init.lua')), init)
  local alone = dofile(init)
  H.eq(alone.checkout_dir(), nil, 'outside a checkout')
  H.eq(alone.install_steps()[2], '  go install ./cmd/lreview-lsp', 'install step without a directory')
end)

H.test('setup() with a cmd that does not exist names it', function()
  local lreview = fresh()
  local seen = capture_notify(function()
    lreview.setup({ cmd = { '/nonexistent/lreview-lsp', '--stdio' } })
    edit_review()
  end)
  H.eq(#seen, 1, 'notifications: ' .. vim.inspect(seen))
  H.ok(seen[1].msg:find('/nonexistent/lreview-lsp', 1, true), 'names the command: ' .. seen[1].msg)
end)

H.test('setup() rejects options of the wrong type', function()
  local lreview = fresh()
  H.ok(not pcall(lreview.setup, { settings = 'author=me' }), 'settings as a string accepted')
end)

H.test('automatic setup warns on the first review buffer; opting out keeps quiet', function()
  fresh()
  local seen = capture_notify(function()
    edit_review()
  end)
  H.eq(#seen, 0, 'notifications with vim.g.lreview_auto_setup = false')

  fresh()
  vim.g.lreview_auto_setup = true
  seen = capture_notify(function()
    edit_review('a.review.json')
    edit_review('b.review.json')
  end)
  vim.g.lreview_auto_setup = false
  H.eq(#seen, 1, 'notifications: ' .. vim.inspect(seen))
  H.ok(require('lreview').is_configured(), 'configured')
end)

H.test('server_cmd: PATH, go install directory, explicit cmd', function()
  local lreview = fresh()
  local dir, exe = fake_server_dir()
  H.eq(lreview.server_cmd(), nil, 'nothing installed')

  vim.env.GOBIN = dir
  H.eq(lreview.server_cmd(), { exe, '--stdio' }, 'found in $GOBIN')
  vim.env.GOBIN = nil

  vim.env.PATH = dir .. ':' .. empty_dir
  H.eq(lreview.server_cmd(), { exe, '--stdio' }, 'found on PATH')
  vim.env.PATH = empty_dir

  H.eq(lreview.server_cmd({ exe, '--stdio' }), { exe, '--stdio' }, 'explicit cmd with arguments')
  H.eq(lreview.server_cmd(exe), { exe }, 'explicit cmd as a string')
end)

H.test('start() passes name, root, settings and on_attach to vim.lsp.start', function()
  local lreview = fresh()
  local _, exe = fake_server_dir()
  local root = vim.fn.tempname()
  vim.fn.mkdir(vim.fs.joinpath(root, '.git'), 'p')
  vim.fn.mkdir(vim.fs.joinpath(root, 'reviews'), 'p')
  local file = vim.fs.joinpath(root, 'reviews', 'x.review.json')
  vim.fn.writefile({ '{"leanreview_review": 1}' }, file)

  local got
  local orig = vim.lsp.start
  vim.lsp.start = function(config, opts)
    got = { config = config, opts = opts }
  end
  local on_attach = function() end
  local settings = { author = 'me', diagnostics = { disabled = { 'unknown-field' } } }
  local ok, err = pcall(function()
    lreview.setup({ cmd = exe, settings = settings, on_attach = on_attach })
    vim.cmd.edit(vim.fn.fnameescape(file))
  end)
  vim.lsp.start = orig
  H.ok(ok, err)

  H.ok(got, 'vim.lsp.start was not called')
  local c = got.config
  H.eq(c.name, 'lreview', 'name')
  H.eq(c.cmd, { exe }, 'cmd')
  H.eq(c.root_dir, vim.fs.normalize(vim.uv.fs_realpath(root)), 'root_dir (nearest .git)')
  H.eq(c.init_options, settings, 'init_options')
  H.eq(c.settings, { lreview = settings }, 'settings')
  H.eq(c.on_attach, on_attach, 'on_attach')
  H.eq(got.opts.bufnr, vim.api.nvim_get_current_buf(), 'bufnr')
end)

H.test('setup() from init.lua, before plugin/lreview.lua loads, still starts the server', function()
  package.loaded['lreview'] = nil
  local lreview = require('lreview')
  local _, exe = fake_server_dir()
  local started = 0
  local orig = vim.lsp.start
  vim.lsp.start = function()
    started = started + 1
  end
  local ok, err = pcall(function()
    lreview.setup({ cmd = exe })
    vim.g.loaded_lreview = nil
    vim.cmd('runtime! plugin/lreview.lua')
    edit_review()
  end)
  vim.lsp.start = orig
  H.ok(ok, err)
  H.eq(started, 1, 'vim.lsp.start calls')
end)

H.test('root_dir without .git is the file directory', function()
  local lreview = fresh()
  local file = H.write_temp('x.review.json', { '{}' })
  vim.cmd.edit(vim.fn.fnameescape(file))
  H.eq(lreview.root_dir(0), vim.fs.dirname(vim.fs.normalize(vim.api.nvim_buf_get_name(0))), 'root_dir')
end)

--- Runs :checkhealth lreview and returns its report as one string.
local function checkhealth()
  vim.cmd('silent checkhealth lreview')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('tabclose!')
  return text
end

H.test(':checkhealth lreview without the server', function()
  fresh()
  local report = checkhealth()
  H.ok(not report:find('ERROR', 1, true), 'errors in report:\n' .. report)
  H.ok(report:find('`lreview-lsp` was not found on PATH', 1, true), 'missing binary not reported:\n' .. report)
  H.ok(report:find('&& go install ./cmd/lreview-lsp', 1, true), 'no install command from the checkout:\n' .. report)
  H.ok(report:find('once the module is published', 1, true), 'no published-module note:\n' .. report)
  H.ok(report:find('go install github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest', 1, true), 'no published install command')
  H.ok(report:find('x.review.json is detected as lreview', 1, true), 'filetype check')
  H.ok(report:find('Neovim ' .. tostring(vim.version()), 1, true), 'Neovim version')
end)

H.test(':checkhealth lreview with a server reports its path and version', function()
  fresh()
  local dir, exe = fake_server_dir()
  vim.env.PATH = dir .. ':' .. empty_dir
  local report = checkhealth()
  vim.env.PATH = empty_dir
  H.ok(report:find('server: ' .. exe, 1, true), 'server path:\n' .. report)
  H.ok(report:find('version: lreview-lsp 0.1.0-test', 1, true), 'server version:\n' .. report)
end)

H.test('lsp/lreview.lua is a vim.lsp.Config for Neovim 0.11', function()
  local config = dofile(vim.fs.joinpath(H.dir, 'lsp', 'lreview.lua'))
  H.eq(config.cmd, { 'lreview-lsp', '--stdio' }, 'cmd')
  H.eq(config.filetypes, { 'lreview' }, 'filetypes')
  H.eq(config.root_markers, { '.git' }, 'root_markers')
  H.eq(config.settings, { lreview = {} }, 'settings')
  H.eq(config.init_options, {}, 'init_options')

  -- Users set settings.lreview once; initialize gets them too.
  config.settings = { lreview = { author = 'me', diagnostics = { disabled = { 'id-missing' } } } }
  config.init_options = { author = 'override' }
  local params = {}
  config.before_init(params, config)
  H.eq(params.initializationOptions, { author = 'override', diagnostics = { disabled = { 'id-missing' } } }, 'initializationOptions')
end)
