// A body edited as Markdown: "lreview: Edit Body as Markdown" opens the comment or reply body at
// the cursor in a Markdown tab, unescaped; saving the tab writes it back into the review as one
// JSON string. The server does both halves (lreview.editBody answers the text, lreview.setBody
// escapes it back and sends the edit), so VS Code writes a body exactly as every other editor.
// The tab is a file of the lreview-body: scheme, served from memory by BodyFileSystem.

import * as vscode from 'vscode';

export const BODY_SCHEME = 'lreview-body';
export const EDIT_BODY_COMMAND = 'lreview.editBodyAsMarkdown';

/** The answer of the server's lreview.editBody. */
export interface BodyResult {
  uri: string;
  comment: string;
  reply: number;
  text: string;
}

/** What runs the server's commands: the running client's sendRequest. */
export type ExecuteCommand = (command: string, args: unknown[]) => Promise<unknown>;

interface Body {
  review: string;
  comment: string;
  reply: number;
  data: Uint8Array;
  mtime: number;
}

/** BodyFileSystem holds the bodies opened, and writes a saved one back through the server. */
export class BodyFileSystem implements vscode.FileSystemProvider {
  private readonly bodies = new Map<string, Body>();
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  constructor(private readonly execute: () => ExecuteCommand | undefined) {}

  /** open registers a body the server answered and returns its tab's URI. */
  open(b: BodyResult): vscode.Uri {
    const name = b.reply >= 0 ? `${b.comment} reply ${b.reply + 1}.md` : `${b.comment} body.md`;
    const uri = vscode.Uri.from({ scheme: BODY_SCHEME, path: `/${name}`, query: b.uri });
    this.bodies.set(uri.toString(), {
      review: b.uri,
      comment: b.comment,
      reply: b.reply,
      data: new TextEncoder().encode(b.text),
      mtime: Date.now(),
    });
    return uri;
  }

  private body(uri: vscode.Uri): Body {
    const b = this.bodies.get(uri.toString());
    if (b === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return b;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const b = this.body(uri);
    return { type: vscode.FileType.File, ctime: b.mtime, mtime: b.mtime, size: b.data.byteLength };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.body(uri).data;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const b = this.body(uri);
    const run = this.execute();
    if (run === undefined) throw vscode.FileSystemError.Unavailable('the lreview server is not running: the body was not written');
    await run('lreview.setBody', [b.review, b.comment, b.reply, new TextDecoder().decode(content)]);
    b.data = content;
    b.mtime = Date.now();
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('bodies are opened from a review');
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions('bodies are opened from a review');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('bodies are opened from a review');
  }
}
