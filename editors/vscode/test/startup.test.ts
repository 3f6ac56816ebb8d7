// Start-up logic of the extension (src/server.ts), without VS Code: finding the server binary,
// the message when it is missing, launch options and initializationOptions.

import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DIAGNOSTIC_CODES,
  EDITOR_ONLY_CODES,
  EXTENSION_CODES,
  INSTALL_COMMAND,
  buildClientOptions,
  buildServerOptions,
  configurationNotification,
  describeSource,
  initializationOptions,
  openSettingsCommand,
  resolveServerPath,
  type ConfigReader,
} from '../src/server';

const pkgDir = path.resolve(__dirname, '..', '..');

/** The temporary folders this file made; removed when its tests are done. */
const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function tmpdir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'lreview-startup-'));
  made.push(d);
  return d;
}

function fakeBinary(dir: string, name = 'lreview-lsp', mode = 0o755): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, mode);
  return file;
}

/** A ConfigReader over a flat map of dotted keys, like vscode.WorkspaceConfiguration.get. */
function settings(values: Record<string, unknown>): ConfigReader {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

const posixOnly = process.platform === 'win32' ? 'POSIX file modes' : false;

test('resolveServerPath: finds lreview-lsp on PATH', { skip: posixOnly }, () => {
  const root = tmpdir();
  const bin = fakeBinary(path.join(root, 'bin'));
  const got = resolveServerPath('', { env: { PATH: ['/nonexistent', path.join(root, 'bin')].join(path.delimiter) }, homedir: root });
  assert.deepEqual(got, { ok: true, path: bin, source: 'PATH' });
});

test('resolveServerPath: skips a non-executable file on PATH', { skip: posixOnly }, () => {
  const root = tmpdir();
  fakeBinary(path.join(root, 'a'), 'lreview-lsp', 0o644);
  const exec = fakeBinary(path.join(root, 'b'));
  const got = resolveServerPath(undefined, {
    env: { PATH: [path.join(root, 'a'), path.join(root, 'b')].join(path.delimiter) },
    homedir: root,
  });
  assert.ok(got.ok, `got ${JSON.stringify(got)}, want found`);
  assert.equal(got.path, exec);
});

test('resolveServerPath: falls back to GOBIN, then GOPATH/bin, then ~/go/bin', { skip: posixOnly }, () => {
  const root = tmpdir();
  const gobin = fakeBinary(path.join(root, 'gobin'));
  let got = resolveServerPath('', { env: { PATH: '', GOBIN: path.join(root, 'gobin') }, homedir: root });
  assert.deepEqual(got, { ok: true, path: gobin, source: 'GOBIN' });

  const gopathBin = fakeBinary(path.join(root, 'gp2', 'bin'));
  got = resolveServerPath('', {
    env: { PATH: '', GOPATH: [path.join(root, 'gp1'), path.join(root, 'gp2')].join(path.delimiter) },
    homedir: root,
  });
  assert.deepEqual(got, { ok: true, path: gopathBin, source: 'GOPATH' });

  const home = tmpdir();
  const homeBin = fakeBinary(path.join(home, 'go', 'bin'));
  got = resolveServerPath('', { env: { PATH: '' }, homedir: home });
  assert.deepEqual(got, { ok: true, path: homeBin, source: 'GOPATH' });
});

test('resolveServerPath: the setting, then the bundled server, then PATH', { skip: posixOnly }, () => {
  const root = tmpdir();
  const bundled = fakeBinary(path.join(root, 'extension', 'server'));
  const onPath = fakeBinary(path.join(root, 'bin'));
  const custom = fakeBinary(path.join(root, 'custom'), 'my-lsp');
  const env = { PATH: path.join(root, 'bin') };
  const bundledDir = path.join(root, 'extension', 'server');
  assert.deepEqual(resolveServerPath(custom, { env, homedir: root, bundledDir }), { ok: true, path: custom, source: 'setting' });
  assert.deepEqual(resolveServerPath('', { env, homedir: root, bundledDir }), { ok: true, path: bundled, source: 'bundled' });
  // The universal package carries no server: PATH as before.
  const empty = path.join(root, 'universal', 'server');
  assert.deepEqual(resolveServerPath('', { env, homedir: root, bundledDir: empty }), { ok: true, path: onPath, source: 'PATH' });
  assert.equal(describeSource('bundled'), 'bundled with the extension');
  assert.equal(describeSource('setting'), 'from the setting lreview.server.path');
});

test('resolveServerPath: a bundled lreview-lsp.exe on Windows', () => {
  const file = 'C:\\ext\\server\\lreview-lsp.exe';
  const got = resolveServerPath('', {
    env: { Path: 'C:\\nowhere' },
    platform: 'win32',
    homedir: 'C:\\Users\\ann',
    bundledDir: 'C:\\ext\\server',
    isExecutable: (f) => f.toLowerCase() === file.toLowerCase(),
  });
  assert.deepEqual(got, { ok: true, path: 'C:\\ext\\server\\lreview-lsp.exe', source: 'bundled' });
});

test('resolveServerPath: missing binary gives a message with the install command', () => {
  const root = tmpdir();
  const got = resolveServerPath('', { env: { PATH: path.join(root, 'empty') }, homedir: root });
  assert.equal(got.ok, false);
  if (got.ok) return;
  assert.equal(got.reason, 'not-found');
  assert.ok(got.message.includes(INSTALL_COMMAND), `message ${JSON.stringify(got.message)} lacks the install command`);
  assert.ok(got.message.includes('lreview-lsp'), 'message names the binary');
  assert.ok(got.message.includes('lreview.server.path'), 'message names the setting');
  assert.ok(!/\n\s+at /.test(got.message), 'message is not a stack trace');
  assert.equal(INSTALL_COMMAND, 'go install ./cmd/lreview-lsp');
  // From a checkout first (with the Go version), the published module only second.
  const checkout = got.message.indexOf('`go install ./cmd/lreview-lsp`');
  const published = got.message.indexOf('`go install github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest`');
  assert.ok(checkout >= 0 && published > checkout, `message ${JSON.stringify(got.message)}: checkout install first, then the module`);
  assert.ok(/clone of lreview-lsp/.test(got.message) && /Go 1\.26 or newer/.test(got.message), 'names the clone and the Go version');
  assert.ok(/once the module is published/.test(got.message), 'the module install is conditional');
});

test('resolveServerPath: the setting wins over PATH', { skip: posixOnly }, () => {
  const root = tmpdir();
  fakeBinary(path.join(root, 'path'));
  const custom = fakeBinary(path.join(root, 'custom'), 'my-lreview');
  const got = resolveServerPath(custom, { env: { PATH: path.join(root, 'path') }, homedir: root });
  assert.deepEqual(got, { ok: true, path: custom, source: 'setting' });
});

test('resolveServerPath: setting with ~, ${workspaceFolder}, relative path and bare name', { skip: posixOnly }, () => {
  const home = tmpdir();
  const inHome = fakeBinary(path.join(home, 'tools'));
  let got = resolveServerPath('~/tools/lreview-lsp', { env: { PATH: '' }, homedir: home });
  assert.deepEqual(got, { ok: true, path: inHome, source: 'setting' });

  const ws = tmpdir();
  const inWs = fakeBinary(path.join(ws, 'bin'));
  got = resolveServerPath('${workspaceFolder}/bin/lreview-lsp', { env: { PATH: '' }, homedir: home, workspaceFolder: ws });
  assert.deepEqual(got, { ok: true, path: inWs, source: 'setting' });
  got = resolveServerPath('./bin/lreview-lsp', { env: { PATH: '' }, homedir: home, workspaceFolder: ws });
  assert.deepEqual(got, { ok: true, path: inWs, source: 'setting' });

  const named = fakeBinary(path.join(home, 'pathdir'), 'lreview-lsp-dev');
  got = resolveServerPath('lreview-lsp-dev', { env: { PATH: path.join(home, 'pathdir') }, homedir: home });
  assert.deepEqual(got, { ok: true, path: named, source: 'setting' });
});

test('resolveServerPath: a setting that points nowhere is reported, not silently replaced', { skip: posixOnly }, () => {
  const root = tmpdir();
  fakeBinary(path.join(root, 'path'));
  const got = resolveServerPath('/no/such/lreview-lsp', { env: { PATH: path.join(root, 'path') }, homedir: root });
  assert.equal(got.ok, false);
  if (got.ok) return;
  assert.equal(got.reason, 'setting-not-found');
  assert.ok(got.message.includes('/no/such/lreview-lsp'), `message ${JSON.stringify(got.message)} names the path`);
  assert.ok(got.message.includes('lreview.server.path'), 'message names the setting');
  assert.ok(got.message.includes(INSTALL_COMMAND), 'message names the install command');

  const dir = resolveServerPath(root, { env: { PATH: '' }, homedir: root });
  assert.equal(dir.ok, false, 'a directory is not an executable');
});

test('resolveServerPath: Windows PATHEXT lookup', () => {
  const seen: string[] = [];
  const got = resolveServerPath('', {
    platform: 'win32',
    env: { Path: 'C:\\tools;C:\\go\\bin', PATHEXT: '.COM;.EXE' },
    homedir: 'C:\\Users\\me',
    isExecutable: (f) => {
      seen.push(f);
      return f === 'C:\\go\\bin\\lreview-lsp.exe';
    },
  });
  assert.deepEqual(got, { ok: true, path: 'C:\\go\\bin\\lreview-lsp.exe', source: 'PATH' });
  assert.ok(seen.includes('C:\\tools\\lreview-lsp.com'), `looked at ${seen.join(', ')}`);
});

test('buildServerOptions: runs the binary with --stdio and no transport (no second --stdio)', () => {
  const opts = buildServerOptions('/usr/local/bin/lreview-lsp');
  assert.equal(opts.command, '/usr/local/bin/lreview-lsp');
  assert.deepEqual(opts.args, ['--stdio']);
  assert.equal(opts.transport, undefined);
});

test('initializationOptions: {author, diagnostics: {disabled}} from settings', () => {
  assert.deepEqual(initializationOptions(settings({})), { author: '', diagnostics: { disabled: [] } });
  assert.deepEqual(
    initializationOptions(
      settings({ author: ' hduran ', 'diagnostics.disabled': ['unknown-field', 'id-missing', 'unknown-field', 3, ''] }),
    ),
    { author: 'hduran', diagnostics: { disabled: ['unknown-field', 'id-missing'] } },
  );
  // Wrongly typed settings are ignored rather than sent.
  assert.deepEqual(initializationOptions(settings({ author: 42, 'diagnostics.disabled': 'unknown-field' })), {
    author: '',
    diagnostics: { disabled: [] },
  });
});

test('initializationOptions: sourceRoot and workingTree only when set', () => {
  assert.deepEqual(initializationOptions(settings({ sourceRoot: ' ../repo ', workingTree: false })), {
    author: '',
    diagnostics: { disabled: [] },
    sourceRoot: '../repo',
    workingTree: false,
  });
  assert.deepEqual(initializationOptions(settings({ sourceRoot: '', workingTree: true })), { author: '', diagnostics: { disabled: [] } });
});

test('buildClientOptions: lreview documents, no library settings sync, live init options', () => {
  let current = settings({ author: 'a' });
  const opts = buildClientOptions(() => current);
  assert.deepEqual(opts.documentSelector, [{ language: 'lreview' }]);
  // The library's own settings listener would race a restart; extension.ts notifies instead.
  assert.equal(opts.synchronize, undefined);
  assert.equal(typeof opts.initializationOptions, 'function');
  const init = opts.initializationOptions as () => unknown;
  assert.deepEqual(init(), { author: 'a', diagnostics: { disabled: [] } });
  current = settings({ author: 'b', 'diagnostics.disabled': ['html-escape'] });
  assert.deepEqual(init(), { author: 'b', diagnostics: { disabled: ['html-escape'] } }, 'a restart sees new settings');
});

test('configurationNotification: the lreview section, as the server reads it', () => {
  assert.deepEqual(configurationNotification(settings({ author: ' c ', 'diagnostics.disabled': ['schema'] })), {
    settings: { lreview: { author: 'c', diagnostics: { disabled: ['schema'] } } },
  });
});

test('openSettingsCommand: the Remote tab in a remote window, the User tab otherwise', () => {
  assert.deepEqual(openSettingsCommand(undefined), ['workbench.action.openSettings', '@id:lreview.server.path']);
  assert.deepEqual(openSettingsCommand('ssh-remote'), ['workbench.action.openRemoteSettings', { query: '@id:lreview.server.path' }]);
});

test('package.json: settings, commands and legend match the shared conventions', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['lreview.server.path'].type, 'string');
  assert.equal(props['lreview.server.path'].default, '');
  assert.equal(props['lreview.author'].type, 'string');
  assert.deepEqual(props['lreview.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.deepEqual(props['lreview.diagnostics.disabled'].items.enum, [...DIAGNOSTIC_CODES, ...EXTENSION_CODES, ...EDITOR_ONLY_CODES]);
  assert.equal(
    props['lreview.diagnostics.disabled'].items.enum.length,
    props['lreview.diagnostics.disabled'].items.enumDescriptions.length,
    'one description per code',
  );

  const commands = Object.fromEntries(
    pkg.contributes.commands.map((c: { command: string; category: string; title: string }) => [c.command, `${c.category}: ${c.title}`]),
  );
  assert.deepEqual(commands, {
    'lreview.restartServer': 'lreview: Restart Language Server',
    'lreview.showOutput': 'lreview: Show Output',
    'lreview.goToNextComment': 'lreview: Go to Next Review Comment',
    'lreview.goToPreviousComment': 'lreview: Go to Previous Review Comment',
    'lreview.replyToComment': 'lreview: Reply',
    'lreview.dismissComment': 'lreview: Dismiss',
    'lreview.applyThreadSuggestion': 'lreview: Apply Suggestion',
    'lreview.editBodyAsMarkdown': 'lreview: Edit Body as Markdown',
  });

  const legend = pkg.contributes.semanticTokenTypes.map((t: { id: string }) => t.id);
  assert.deepEqual(legend, ['diffHeader', 'diffHunk', 'diffAdded', 'diffRemoved', 'diffContext', 'diffNoNewline']);
  for (const t of pkg.contributes.semanticTokenTypes) {
    assert.ok(t.description, `${t.id} has a description`);
  }
  const scopes = pkg.contributes.semanticTokenScopes.find((s: { language: string }) => s.language === 'lreview').scopes;
  assert.deepEqual(Object.keys(scopes).sort(), [...legend].sort(), 'every token type is mapped to TextMate scopes');
  assert.equal(scopes.diffAdded[0], 'markup.inserted.diff');
  assert.equal(scopes.diffRemoved[0], 'markup.deleted.diff');
  assert.equal(scopes.diffHunk[0], 'meta.diff.range.unified');

  // One source per feature: the JSON language features must not also serve lreview documents
  // (a second outline, every schema error twice); the server validates the schema.
  assert.equal(pkg.contributes.jsonValidation, undefined);
  assert.equal(pkg.contributes.jsonLanguageParticipants, undefined);
  assert.deepEqual(pkg.contributes.configurationDefaults['[lreview]'], {
    'editor.defaultFormatter': `${pkg.publisher}.${pkg.name}`,
    'editor.semanticHighlighting.enabled': true,
  });
  // The Comments panel opens by itself only for unresolved threads (GitHub's), not for a
  // review's, which have no resolved state: it would cover a third of the window.
  assert.equal(pkg.contributes.configurationDefaults['comments.openView'], 'firstFileUnresolved');
  const colors = pkg.contributes.colors.map((c: { id: string; defaults: Record<string, string> }) => {
    assert.deepEqual(Object.keys(c.defaults).sort(), ['dark', 'highContrast', 'highContrastLight', 'light'], `${c.id} has a default per theme kind`);
    return c.id;
  });
  assert.deepEqual(colors.sort(), [
    'lreview.diffAddedForeground',
    'lreview.diffContextForeground',
    'lreview.diffHeaderForeground',
    'lreview.diffHunkForeground',
    'lreview.diffRemovedForeground',
  ]);
});
