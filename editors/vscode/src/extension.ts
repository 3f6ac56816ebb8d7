// The VS Code side of lreview: thin glue between the editor and lreview-lsp. Everything that can
// be decided without the editor (finding the binary, launch options, init options, where the
// cursor goes, where diff colours go) is in pure modules and unit-tested there.

import * as vscode from 'vscode';
import { LanguageClient, type Middleware } from 'vscode-languageclient/node';
import { bodyCursor, type Edit } from './bodycursor';
import { BODY_SCHEME, BodyFileSystem, EDIT_BODY_COMMAND, type BodyResult, type ExecuteCommand } from './bodyeditor';
import { DiffDecorator } from './decorations';
import { Sources } from './sources';
import {
  ACTION_COPY_INSTALL,
  ACTION_OPEN_SETTINGS,
  CONFIG_SECTION,
  INSTALL_COMMAND,
  LANGUAGE_ID,
  buildClientOptions,
  buildServerOptions,
  configurationNotification,
  describeSource,
  openSettingsCommand,
  resolveServerPath,
} from './server';

/**
 * LreviewClient is the library's client with the noise of a deliberate stop reworded as
 * information: the library logs every exit of the server process as an error, also the clean
 * exit (code 0) after a stop or restart, and so it does a request that was in flight when the
 * stop began (the server answers it "shut down", as LSP asks). Neither needs the user.
 */
class LreviewClient extends LanguageClient {
  private stopping = false;

  stop(timeout?: number): Promise<void> {
    this.stopping = true;
    return super.stop(timeout);
  }

  error(message: string, data?: unknown, showNotification?: boolean | 'force'): void {
    if (/^Server process exited with code 0\.?$/.test(message)) {
      this.info('Server process exited (code 0).');
      return;
    }
    if (this.stopping && /^(Request|Sending request|Sending notification) \S+ failed\.$/.test(message)) {
      this.info(`${message.replace(/ failed\.$/, '')}: not answered, the server was stopping.`);
      return;
    }
    super.error(message, data, showNotification);
  }
}

let client: LreviewClient | undefined;
let output: vscode.OutputChannel | undefined;
let decorator: DiffDecorator | undefined;
let sources: Sources | undefined;

const MOVE_CURSOR = 'lreview.internal.moveCursor';

/** executeCommand runs a command of the running server, or is undefined without one. */
function executeCommand(): ExecuteCommand | undefined {
  const c = client;
  if (c === undefined || !c.isRunning()) return undefined;
  return (command, args) => c.sendRequest('workspace/executeCommand', { command, arguments: args });
}

let bodies: BodyFileSystem | undefined;

/** editBody opens the body at the cursor of the active review in a Markdown tab beside it. */
async function editBody(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const c = client;
  const run = executeCommand();
  if (editor === undefined || editor.document.languageId !== LANGUAGE_ID || c === undefined || run === undefined || bodies === undefined) {
    void vscode.window.showWarningMessage('lreview: put the cursor in a comment of a review whose server is running.');
    return;
  }
  try {
    const b = (await run('lreview.editBody', [
      c.code2ProtocolConverter.asUri(editor.document.uri),
      c.code2ProtocolConverter.asPosition(editor.selection.active),
    ])) as BodyResult;
    const doc = await vscode.workspace.openTextDocument(bodies.open(b));
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  } catch (e) {
    void vscode.window.showWarningMessage(`lreview: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel('lreview');
  context.subscriptions.push(output);
  bodies = new BodyFileSystem(executeCommand);
  decorator = new DiffDecorator(
    {
      legend: () => client?.initializeResult?.capabilities.semanticTokensProvider?.legend.tokenTypes,
      tokens: async (document) => {
        const c = client;
        if (c === undefined || !c.isRunning()) return undefined;
        const r = await c.sendRequest<{ data: number[] } | null>('textDocument/semanticTokens/full', {
          textDocument: { uri: c.code2ProtocolConverter.asUri(document.uri) },
        });
        return r?.data;
      },
    },
    LANGUAGE_ID,
  );
  sources = new Sources(() => client);
  context.subscriptions.push(
    sources,
    decorator,
    vscode.commands.registerCommand('lreview.restartServer', () => restart()),
    vscode.commands.registerCommand('lreview.showOutput', () => output?.show(true)),
    vscode.commands.registerCommand(MOVE_CURSOR, moveCursor),
    vscode.workspace.registerFileSystemProvider(BODY_SCHEME, bodies, { isCaseSensitive: true }),
    vscode.commands.registerCommand(EDIT_BODY_COMMAND, editBody),
    // Trust granted: the workspace's own values of the restricted settings count from now on.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // One listener for all lreview settings, queued with the restarts: a notification is never
      // sent to a client that is stopping.
      if (e.affectsConfiguration('lreview.server.path')) {
        void restart();
      } else if (e.affectsConfiguration(CONFIG_SECTION)) {
        void enqueue(notifySettings);
      }
    }),
    { dispose: () => void stop() },
  );

  await enqueue(start);
}

export async function deactivate(): Promise<void> {
  await stop();
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(CONFIG_SECTION);
}

let extensionPath: string | undefined;

async function start(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const resolved = resolveServerPath(config().get<string>('server.path'), {
    workspaceFolder: folder?.scheme === 'file' ? folder.fsPath : undefined,
    bundledDir: extensionPath === undefined ? undefined : vscode.Uri.joinPath(vscode.Uri.file(extensionPath), 'server').fsPath,
  });
  if (!resolved.ok) {
    output?.appendLine(resolved.message);
    void showNotFound(resolved.message);
    return;
  }
  output?.appendLine(`lreview: starting ${resolved.path} --stdio (${describeSource(resolved.source)})`);

  const clientOptions = buildClientOptions(config, () => vscode.workspace.isTrusted);
  clientOptions.outputChannel = output;
  clientOptions.middleware = middleware;
  const c = new LreviewClient(LANGUAGE_ID, 'lreview', buildServerOptions(resolved.path), clientOptions);
  client = c;
  try {
    await c.start();
    const info = c.initializeResult?.serverInfo;
    output?.appendLine(
      `lreview: server ${info?.name ?? 'lreview-lsp'} ${info?.version ?? '(no version reported)'}, ` +
        `${describeSource(resolved.source)}: ${resolved.path}`,
    );
    sources?.started();
    decorator?.forget();
    decorator?.refreshVisible();
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

async function notifySettings(): Promise<void> {
  const c = client;
  if (c === undefined || !c.isRunning()) {
    return; // a server that starts later reads the settings from initializationOptions
  }
  await c.sendNotification('workspace/didChangeConfiguration', configurationNotification(config(), vscode.workspace.isTrusted));
}

// Restarts and settings notifications are queued so that they never interleave.
let queue: Promise<void> = Promise.resolve();

function enqueue(job: () => Promise<void>): Promise<void> {
  queue = queue.then(job).catch((err) => {
    output?.appendLine(`lreview: ${err instanceof Error ? err.message : String(err)}`);
  });
  return queue;
}

function restart(): Promise<void> {
  return enqueue(async () => {
    await stop();
    await start();
  });
}

/** The code actions that write an empty "body" put the cursor into it afterwards. */
const middleware: Middleware = {
  async provideCodeActions(document, range, context, token, next) {
    const actions = await next(document, range, context, token);
    for (const a of actions ?? []) {
      if (a instanceof vscode.CodeAction && a.edit !== undefined && a.command === undefined) {
        const edits: Edit[] = a.edit.get(document.uri);
        const at = bodyCursor(edits);
        if (at !== undefined) {
          a.command = { title: 'Edit the body', command: MOVE_CURSOR, arguments: [document.uri.toString(), at.line, at.character] };
        }
      }
    }
    return actions;
  },
};

async function moveCursor(uri: string, line: number, character: number): Promise<void> {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
  if (editor === undefined) {
    return;
  }
  const pos = editor.document.validatePosition(new vscode.Position(line, character));
  editor.selection = new vscode.Selection(pos, pos);
  editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.window.showTextDocument(editor.document, editor.viewColumn);
}

async function showNotFound(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, ACTION_COPY_INSTALL, ACTION_OPEN_SETTINGS);
  if (choice === ACTION_COPY_INSTALL) {
    await vscode.env.clipboard.writeText(INSTALL_COMMAND);
    void vscode.window.showInformationMessage(`Copied: ${INSTALL_COMMAND}`);
  } else if (choice === ACTION_OPEN_SETTINGS) {
    const [command, arg] = openSettingsCommand(vscode.env.remoteName);
    await vscode.commands.executeCommand(command, arg);
  }
}
