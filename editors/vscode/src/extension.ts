// The VS Code side of lreview: thin glue between the editor and lreview-lsp. Everything that can
// be decided without the editor (finding the binary, launch options, init options) is in
// server.ts and unit-tested there.

import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import {
  ACTION_COPY_INSTALL,
  ACTION_OPEN_SETTINGS,
  CONFIG_SECTION,
  INSTALL_COMMAND,
  LANGUAGE_ID,
  buildClientOptions,
  buildServerOptions,
  resolveServerPath,
} from './server';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('lreview');
  context.subscriptions.push(output);

  context.subscriptions.push(
    vscode.commands.registerCommand('lreview.restartServer', () => restart()),
    vscode.commands.registerCommand('lreview.showOutput', () => output?.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Other lreview settings reach the running server through synchronize.configurationSection.
      if (e.affectsConfiguration('lreview.server.path')) {
        void restart();
      }
    }),
    { dispose: () => void stop() },
  );

  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(CONFIG_SECTION);
}

async function start(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const resolved = resolveServerPath(config().get<string>('server.path'), {
    workspaceFolder: folder?.scheme === 'file' ? folder.fsPath : undefined,
  });
  if (!resolved.ok) {
    output?.appendLine(resolved.message);
    void showNotFound(resolved.message);
    return;
  }
  output?.appendLine(`lreview: starting ${resolved.path} --stdio (found via ${resolved.source})`);

  const clientOptions = buildClientOptions(config);
  clientOptions.outputChannel = output;
  client = new LanguageClient(LANGUAGE_ID, 'lreview', buildServerOptions(resolved.path), clientOptions);
  try {
    await client.start();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    output?.appendLine(`lreview: the language server failed to start: ${message}`);
    const choice = await vscode.window.showErrorMessage(
      `lreview: the language server (${resolved.path}) failed to start: ${message}`,
      'Show output',
    );
    if (choice === 'Show output') {
      output?.show(true);
    }
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c === undefined) {
    return;
  }
  try {
    await c.stop();
  } catch {
    // A server that already died cannot be stopped; nothing is left to clean up.
  }
}

// Restarts are queued so that a settings change and the command cannot interleave.
let queue: Promise<void> = Promise.resolve();

function restart(): Promise<void> {
  queue = queue.then(async () => {
    await stop();
    await start();
  });
  return queue;
}

async function showNotFound(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, ACTION_COPY_INSTALL, ACTION_OPEN_SETTINGS);
  if (choice === ACTION_COPY_INSTALL) {
    await vscode.env.clipboard.writeText(INSTALL_COMMAND);
    void vscode.window.showInformationMessage(`Copied: ${INSTALL_COMMAND}`);
  } else if (choice === ACTION_OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'lreview.server.path');
  }
}
