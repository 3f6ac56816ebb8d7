// The bundled extension (dist/extension.js) activated against a stub of the `vscode` module:
// checks the glue in extension.ts — commands registered, and a missing server reported as a
// message with actions, not as an exception.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import Module = require('node:module');
import { INSTALL_COMMAND } from '../src/server';

const bundle = path.resolve(__dirname, '..', '..', 'dist', 'extension.js');

interface Recorded {
  commands: Map<string, (...args: unknown[]) => unknown>;
  errors: { message: string; items: string[] }[];
  clipboard: string[];
  executed: unknown[][];
  output: string[];
}

function stubVscode(
  settings: Record<string, unknown>,
  choose: string | undefined,
  remoteName: string | undefined,
): { vscode: unknown; rec: Recorded } {
  const rec: Recorded = { commands: new Map(), errors: [], clipboard: [], executed: [], output: [] };
  const disposable = { dispose: () => undefined };
  const vscode = {
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
    EventEmitter: class {
      event = () => disposable;
      fire(): void {}
      dispose(): void {}
    },
    window: {
      createOutputChannel: () => ({
        appendLine: (s: string) => rec.output.push(s),
        append: (s: string) => rec.output.push(s),
        show: () => undefined,
        dispose: () => undefined,
      }),
      showErrorMessage: async (message: string, ...items: string[]) => {
        rec.errors.push({ message, items });
        return choose;
      },
      showInformationMessage: async () => undefined,
      createTextEditorDecorationType: () => ({ dispose: () => undefined }),
      onDidChangeVisibleTextEditors: () => disposable,
      visibleTextEditors: [],
    },
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        rec.commands.set(id, fn);
        return disposable;
      },
      executeCommand: async (...args: unknown[]) => {
        rec.executed.push(args);
      },
    },
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: (section: string) => {
        assert.equal(section, 'lreview');
        return { get: (key: string) => settings[key] };
      },
      onDidChangeConfiguration: () => disposable,
      onDidGrantWorkspaceTrust: () => disposable,
      registerFileSystemProvider: () => disposable,
      onDidChangeTextDocument: () => disposable,
      onDidCloseTextDocument: () => disposable,
      onDidOpenTextDocument: () => disposable,
      textDocuments: [],
    },
    comments: {
      createCommentController: () => ({ dispose: () => undefined, createCommentThread: () => ({ dispose: () => undefined }) }),
    },
    languages: {
      onDidChangeDiagnostics: () => disposable,
      getDiagnostics: () => [],
      registerHoverProvider: () => disposable,
      registerCodeActionsProvider: () => disposable,
    },
    env: {
      remoteName,
      clipboard: {
        writeText: async (s: string) => {
          rec.clipboard.push(s);
        },
      },
    },
  };
  return { vscode: withFallback(vscode), rec };
}

/**
 * withFallback answers every member the stub does not define with a constructible, indexable
 * dummy: vscode-languageclient subclasses vscode classes and reads enums at load time.
 */
function withFallback<T extends object>(target: T): T {
  const dummy = (): unknown =>
    new Proxy(class {}, {
      get: (cls, prop) => (prop === 'then' || typeof prop === 'symbol' || prop === 'prototype' ? Reflect.get(cls, prop) : dummy()),
    });
  return new Proxy(target, {
    get: (obj, prop) => {
      if (typeof prop === 'symbol' || prop === 'then') return Reflect.get(obj, prop);
      if (prop in obj) {
        const v = Reflect.get(obj, prop);
        return v !== null && typeof v === 'object' && !Array.isArray(v) ? withFallback(v) : v;
      }
      return dummy();
    },
  });
}

/** Loads a fresh copy of the bundle with `vscode` resolved to the stub. */
function loadExtension(vscode: unknown): { activate: (ctx: unknown) => Promise<void>; deactivate: () => Promise<void> } {
  const M = Module as unknown as { _load: (req: string, parent: unknown, isMain: boolean) => unknown };
  const original = M._load;
  M._load = function (req: string, parent: unknown, isMain: boolean) {
    if (req === 'vscode') return vscode;
    return original.call(this, req, parent, isMain);
  };
  try {
    delete require.cache[bundle];
    return require(bundle);
  } finally {
    M._load = original;
  }
}

async function activateWith(settings: Record<string, unknown>, choose?: string, remoteName?: string) {
  const { vscode, rec } = stubVscode(settings, choose, remoteName);
  const ext = loadExtension(vscode);
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  await ext.activate(context);
  // Let the notification's follow-up (clipboard, settings) run.
  await new Promise((r) => setImmediate(r));
  return { ext, rec, context };
}

test('activate: registers the commands', async () => {
  const { rec, ext } = await activateWith({ 'server.path': '/no/such/lreview-lsp' });
  assert.deepEqual([...rec.commands.keys()].sort(), [
    'lreview.applyThreadSuggestion',
    'lreview.dismissComment',
    'lreview.editBodyAsMarkdown',
    'lreview.goToNextComment',
    'lreview.goToPreviousComment',
    'lreview.internal.moveCursor',
    'lreview.replyToComment',
    'lreview.restartServer',
    'lreview.showOutput',
  ]);
  await ext.deactivate();
});

test('activate: a missing server is a message with actions, and "Copy install command" copies it', async () => {
  const { rec, ext } = await activateWith({ 'server.path': '/no/such/lreview-lsp' }, 'Copy install command');
  assert.equal(rec.errors.length, 1, `got ${rec.errors.length} error messages, want 1`);
  const [err] = rec.errors;
  assert.ok(err.message.includes('/no/such/lreview-lsp'), `message ${JSON.stringify(err.message)} names the configured path`);
  assert.ok(err.message.includes(INSTALL_COMMAND), `message ${JSON.stringify(err.message)} names the install command`);
  assert.deepEqual(err.items, ['Copy install command', 'Open settings']);
  assert.deepEqual(rec.clipboard, [INSTALL_COMMAND]);
  assert.ok(rec.output.some((l) => l.includes(INSTALL_COMMAND)), 'the output channel has the message too');
  await ext.deactivate();
});

test('activate: "Open settings" opens lreview.server.path', async () => {
  const { rec, ext } = await activateWith({ 'server.path': '/no/such/lreview-lsp' }, 'Open settings');
  assert.deepEqual(rec.executed, [['workbench.action.openSettings', '@id:lreview.server.path']]);
  await ext.deactivate();
});

test('activate: in a remote window "Open settings" opens the Remote tab, where the setting applies', async () => {
  const { rec, ext } = await activateWith({ 'server.path': '/no/such/lreview-lsp' }, 'Open settings', 'ssh-remote');
  assert.deepEqual(rec.executed, [['workbench.action.openRemoteSettings', { query: '@id:lreview.server.path' }]]);
  await ext.deactivate();
});

test('activate: restart re-reads the settings and reports again', async () => {
  const { rec, ext } = await activateWith({ 'server.path': '/no/such/lreview-lsp' });
  await rec.commands.get('lreview.restartServer')!();
  assert.equal(rec.errors.length, 2, 'restart looked for the server again');
  await ext.deactivate();
});
