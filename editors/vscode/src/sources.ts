// The review in the code: the comments of the reviews in scope where the person reads and edits
// the source. The server publishes them as diagnostics on the source files (code review-comment),
// so they are in the Problems panel already; this module
//   - keeps the server told of the source documents' text (didOpen/didChange/didClose), so that
//     the comments follow the buffer as it is typed in. It does it itself rather than through the
//     client's document selector: that would register every one of the server's review features
//     (formatting, semantic tokens, completion) for every language, beside the language's own;
//   - adds the hover and the code actions of a commented line (the server's, for source files);
//   - shows each comment as a native comment thread (the Comments API), with Reply and Dismiss
//     writing into the review through the server's code actions;
//   - moves to the next / previous comment across the files (lreview.goToNextComment, Alt+F8).

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LANGUAGE_ID } from './server';
import { threadEntries, threadOf } from './threads';

/** The diagnostic code of a review's comment on a source file. */
export const COMMENT_CODE = 'review-comment';

type ClientGetter = () => LanguageClient | undefined;

function running(get: ClientGetter): LanguageClient | undefined {
  const c = get();
  return c !== undefined && c.isRunning() ? c : undefined;
}

/** A source document: a file that is not a review. */
function isSource(doc: vscode.TextDocument): boolean {
  return doc.uri.scheme === 'file' && doc.languageId !== LANGUAGE_ID;
}

function codeOf(d: vscode.Diagnostic): string | undefined {
  const code = d.code;
  if (typeof code === 'string') return code;
  if (typeof code === 'number') return String(code);
  return code?.value !== undefined ? String(code.value) : undefined;
}

/** The review comments published on uri. */
export function reviewComments(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'lreview' && codeOf(d) === COMMENT_CODE);
}

export class Sources implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly controller: vscode.CommentController;
  /** The comment threads shown, by source URI. */
  private readonly threads = new Map<string, vscode.CommentThread[]>();
  /** reviewOf names the review of a thread where several reviews comment on its file. */
  private readonly reviewOf = new WeakMap<vscode.CommentThread, string>();
  /** The source documents the current client was told of. */
  private opened = new Set<string>();

  constructor(private readonly get: ClientGetter) {
    this.controller = vscode.comments.createCommentController('lreview', 'lreview');
    this.controller.options = { placeHolder: 'Reply in the review…', prompt: 'Reply' };
    this.disposables.push(
      this.controller,
      vscode.workspace.onDidOpenTextDocument((d) => this.open(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.change(e)),
      vscode.workspace.onDidCloseTextDocument((d) => this.close(d)),
      vscode.languages.onDidChangeDiagnostics((e) => e.uris.forEach((u) => void this.refreshThreads(u))),
      vscode.languages.registerHoverProvider({ scheme: 'file' }, { provideHover: (d, p, t) => this.hover(d, p, t) }),
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, { provideCodeActions: (d, r, _c, t) => this.codeActions(d, r, t) }),
      vscode.commands.registerCommand('lreview.goToNextComment', () => this.move(true)),
      vscode.commands.registerCommand('lreview.goToPreviousComment', () => this.move(false)),
      vscode.commands.registerCommand('lreview.replyToComment', (reply: vscode.CommentReply) => this.reply(reply)),
      vscode.commands.registerCommand('lreview.dismissComment', (thread: vscode.CommentThread) => this.dismiss(thread)),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /** started tells a newly started client of the source documents open now. */
  started(): void {
    this.opened = new Set();
    for (const d of vscode.workspace.textDocuments) this.open(d);
  }

  private open(doc: vscode.TextDocument): void {
    const c = running(this.get);
    if (c === undefined || !isSource(doc) || this.opened.has(doc.uri.toString())) return;
    this.opened.add(doc.uri.toString());
    void c.sendNotification('textDocument/didOpen', {
      textDocument: { uri: c.code2ProtocolConverter.asUri(doc.uri), languageId: doc.languageId, version: doc.version, text: doc.getText() },
    });
  }

  private change(e: vscode.TextDocumentChangeEvent): void {
    const c = running(this.get);
    if (c === undefined || !this.opened.has(e.document.uri.toString()) || e.contentChanges.length === 0) return;
    void c.sendNotification('textDocument/didChange', {
      textDocument: { uri: c.code2ProtocolConverter.asUri(e.document.uri), version: e.document.version },
      contentChanges: e.contentChanges.map((ch) => ({ range: c.code2ProtocolConverter.asRange(ch.range), text: ch.text })),
    });
  }

  private close(doc: vscode.TextDocument): void {
    const c = running(this.get);
    if (!this.opened.delete(doc.uri.toString()) || c === undefined) return;
    void c.sendNotification('textDocument/didClose', { textDocument: { uri: c.code2ProtocolConverter.asUri(doc.uri) } });
  }

  private async hover(doc: vscode.TextDocument, pos: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    const c = running(this.get);
    if (c === undefined || !isSource(doc) || !reviewComments(doc.uri).some((d) => d.range.start.line <= pos.line && pos.line <= d.range.end.line)) {
      return undefined;
    }
    const h = await c.sendRequest('textDocument/hover', c.code2ProtocolConverter.asTextDocumentPositionParams(doc, pos), token);
    return (await c.protocol2CodeConverter.asHover(h as never)) ?? undefined;
  }

  /** The server's actions on the comments of range (reply, dismiss, apply the suggestion, show). */
  private async serverActions(doc: vscode.TextDocument, range: vscode.Range, token?: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    const c = running(this.get);
    if (c === undefined || !isSource(doc) || !reviewComments(doc.uri).some((d) => d.range.intersection(range) !== undefined || d.range.start.line === range.start.line)) {
      return [];
    }
    const params = { textDocument: { uri: c.code2ProtocolConverter.asUri(doc.uri) }, range: c.code2ProtocolConverter.asRange(range), context: { diagnostics: [] } };
    // Without a token the client must not be given one: an undefined last argument makes
    // vscode-jsonrpc send the params by position, as an array the server refuses.
    const result = await (token === undefined ? c.sendRequest('textDocument/codeAction', params) : c.sendRequest('textDocument/codeAction', params, token));
    const out: vscode.CodeAction[] = [];
    for (const a of (await c.protocol2CodeConverter.asCodeActionResult((result ?? []) as never)) ?? []) {
      if (a instanceof vscode.CodeAction) out.push(a);
    }
    return out;
  }

  private async codeActions(doc: vscode.TextDocument, range: vscode.Range, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    return this.serverActions(doc, range, token);
  }

  private async move(forward: boolean): Promise<void> {
    const c = running(this.get);
    const editor = vscode.window.activeTextEditor;
    if (c === undefined || editor === undefined) {
      void vscode.window.showInformationMessage('lreview: the language server is not running');
      return;
    }
    const loc = await c.sendRequest<{ uri: string; range: unknown } | null>('workspace/executeCommand', {
      command: forward ? 'lreview.nextComment' : 'lreview.previousComment',
      arguments: [{ uri: c.code2ProtocolConverter.asUri(editor.document.uri), position: c.code2ProtocolConverter.asPosition(editor.selection.active) }],
    });
    if (loc === null || loc === undefined) {
      void vscode.window.showInformationMessage('lreview: no comments');
      return;
    }
    const range = (c.protocol2CodeConverter.asRange(loc.range as Parameters<typeof c.protocol2CodeConverter.asRange>[0]) as vscode.Range | undefined) ?? new vscode.Range(0, 0, 0, 0);
    const doc = await vscode.workspace.openTextDocument(c.protocol2CodeConverter.asUri(loc.uri));
    const shown = await vscode.window.showTextDocument(doc, { selection: new vscode.Range(range.start, range.start) });
    shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** refreshThreads shows uri's comments as comment threads, their text from the server's hover. */
  private async refreshThreads(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const comments = reviewComments(uri);
    // A thread the person opened stays open when the comments are published again (a reply
    // written from it republishes them): known by its name and review.
    const opened = new Set<string>();
    for (const t of this.threads.get(key) ?? []) {
      if (t.collapsibleState === vscode.CommentThreadCollapsibleState.Expanded) opened.add(`${t.label} ${this.reviewOf.get(t) ?? ''}`);
      t.dispose();
    }
    this.threads.delete(key);
    if (comments.length === 0 || uri.scheme !== 'file') return;
    const c = running(this.get);
    const shown: vscode.CommentThread[] = [];
    this.threads.set(key, shown);
    for (const d of comments) {
      const { name, review } = threadOf(d.message);
      let bodies: string[] = [d.message];
      if (c !== undefined) {
        try {
          const h = (await c.sendRequest('textDocument/hover', {
            textDocument: { uri: c.code2ProtocolConverter.asUri(uri) },
            position: { line: d.range.start.line, character: 0 },
          })) as { contents?: { value?: string } } | null;
          const text = h?.contents?.value;
          if (text) bodies = threadEntries(text, name, review) ?? bodies;
        } catch {
          // the one line of the diagnostic stays
        }
      }
      if (this.threads.get(key) !== shown) return; // a newer refresh replaced this one
      const thread = this.controller.createCommentThread(uri, d.range, bodies.map((b) => comment(b)));
      thread.label = name;
      if (review !== undefined) this.reviewOf.set(thread, review);
      thread.contextValue = 'lreview-comment';
      thread.canReply = true;
      thread.collapsibleState = opened.has(`${name} ${review ?? ''}`)
        ? vscode.CommentThreadCollapsibleState.Expanded
        : vscode.CommentThreadCollapsibleState.Collapsed;
      shown.push(thread);
    }
  }

  /** actionOf runs the server's action titled title on the thread's first line. */
  private async actionOf(thread: vscode.CommentThread, title: string): Promise<vscode.CodeAction | undefined> {
    const review = this.reviewOf.get(thread);
    if (review !== undefined) title += ` · in ${review}`;
    const doc = await vscode.workspace.openTextDocument(thread.uri);
    const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
    const actions = await this.serverActions(doc, new vscode.Range(range.start.line, 0, range.start.line, 0));
    return actions.find((a) => a.title === title);
  }

  /** reply writes the thread widget's text as a reply in the review: the server's "Reply to cN" adds it empty, the text goes in its body. */
  private async reply(reply: vscode.CommentReply): Promise<void> {
    const name = reply.thread.label ?? '';
    const action = await this.actionOf(reply.thread, `Reply to ${name}`);
    const c = running(this.get);
    if (action?.edit === undefined || c === undefined) {
      void vscode.window.showWarningMessage(`lreview: ${name} cannot be replied to from here`);
      return;
    }
    if (!(await vscode.workspace.applyEdit(action.edit))) return;
    const at = action.command?.arguments?.[0] as { uri: string; range: unknown } | undefined;
    if (at !== undefined && reply.text !== '') {
      const body = JSON.stringify(reply.text).slice(1, -1);
      const edit = new vscode.WorkspaceEdit();
      const cursor = c.protocol2CodeConverter.asRange(at.range as Parameters<typeof c.protocol2CodeConverter.asRange>[0]) as vscode.Range | undefined;
      if (cursor !== undefined) edit.insert(c.protocol2CodeConverter.asUri(at.uri), cursor.start, body);
      await vscode.workspace.applyEdit(edit);
    }
    const review = vscode.workspace.textDocuments.find((d) => at !== undefined && d.uri.toString() === c.protocol2CodeConverter.asUri(at.uri).toString());
    await review?.save();
  }

  private async dismiss(thread: vscode.CommentThread): Promise<void> {
    const name = thread.label ?? '';
    const action = await this.actionOf(thread, `Dismiss ${name}`);
    if (action?.edit === undefined) return;
    await vscode.workspace.applyEdit(action.edit);
    for (const [uri] of action.edit.entries()) {
      await vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.save();
    }
  }
}

function comment(body: string): vscode.Comment {
  const heading = /^\*\*(.+?)\*\*(?: by \*\*(.+?)\*\*)?/.exec(body);
  const author = heading?.[2] ?? heading?.[1]?.replace(/`/g, '') ?? 'lreview';
  return { body: new vscode.MarkdownString(body), mode: vscode.CommentMode.Preview, author: { name: author } };
}
