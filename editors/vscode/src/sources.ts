// The review in the code: the comments of the reviews in scope where the person reads and edits
// the source. The server publishes them as diagnostics on the source files (code review-comment),
// so they are in the Problems panel already; this module
//   - keeps the server told of the source documents' text (didOpen/didChange/didClose), so that
//     the comments follow the buffer as it is typed in. It does it itself rather than through the
//     client's document selector: that would register every one of the server's review features
//     (formatting, semantic tokens, completion) for every language, beside the language's own;
//   - adds the hover and the code actions of a commented line (the server's, for source files);
//   - shows each comment as a native comment thread (the Comments API), built from the thread the
//     diagnostic carries as data; Reply writes the typed Markdown through the server
//     (lreview.reply), Dismiss and Apply Suggestion run the server's code actions. Each edits the
//     buffer only (the review's, or the source's for a suggestion): the person saves it, as any
//     edit — nothing is written to disk behind them;
//   - moves to the next / previous comment across the files (lreview.goToNextComment, Alt+F8).

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LANGUAGE_ID } from './server';
import { type Entry, type ThreadData, threadContext, threadData, threadEntries, threadKey, threadLabel } from './threads';

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
  /** The comment threads shown, by source URI, then by threadKey. */
  private readonly threads = new Map<string, Map<string, vscode.CommentThread>>();
  /** The thread each comment thread shows, as last published. */
  private readonly dataOf = new WeakMap<vscode.CommentThread, ThreadData>();
  /** The entries each thread shows, to leave an unchanged thread as it is (its widget's height). */
  private readonly shownOf = new WeakMap<vscode.CommentThread, string>();
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
      vscode.languages.onDidChangeDiagnostics((e) => e.uris.forEach((u) => this.refreshThreads(u))),
      vscode.languages.registerHoverProvider({ scheme: 'file' }, { provideHover: (d, p, t) => this.hover(d, p, t) }),
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, { provideCodeActions: (d, r, _c, t) => this.codeActions(d, r, t) }),
      vscode.commands.registerCommand('lreview.goToNextComment', () => this.move(true)),
      vscode.commands.registerCommand('lreview.goToPreviousComment', () => this.move(false)),
      vscode.commands.registerCommand('lreview.replyToComment', (reply: vscode.CommentReply) => this.reply(reply)),
      vscode.commands.registerCommand('lreview.dismissComment', (thread: vscode.CommentThread) => this.dismiss(thread)),
      vscode.commands.registerCommand('lreview.applyThreadSuggestion', (thread: vscode.CommentThread) => this.applySuggestion(thread)),
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
    // The comments landed on open (every thread of that line), as F8 opens a problem's: their
    // words are what was asked for.
    for (const t of this.threads.get(doc.uri.toString())?.values() ?? []) {
      if (t.range.start.line === range.start.line) t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    }
  }

  /**
   * refreshThreads shows uri's comments as comment threads, from the thread each diagnostic
   * carries. A thread already shown is updated in place, and left alone when its words did not
   * change: recreating it would close it, and move the lines below its widget.
   */
  private refreshThreads(uri: vscode.Uri): void {
    const key = uri.toString();
    if (uri.scheme !== 'file') return;
    const found: { range: vscode.Range; t: ThreadData }[] = [];
    for (const d of reviewComments(uri)) {
      const t = threadData((d as { data?: unknown }).data);
      if (t !== undefined) found.push({ range: d.range, t });
    }
    const several = new Set(found.map((f) => f.t.review)).size > 1;
    const old = this.threads.get(key) ?? new Map<string, vscode.CommentThread>();
    const next = new Map<string, vscode.CommentThread>();
    for (const { range, t } of found) {
      const k = threadKey(t);
      if (next.has(k)) continue;
      const entries = threadEntries(t);
      const words = JSON.stringify(entries);
      let thread = old.get(k);
      if (thread === undefined) {
        thread = this.controller.createCommentThread(uri, range, entries.map(comment));
        thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
      } else {
        old.delete(k);
        if (!thread.range.isEqual(range)) thread.range = range;
        if (this.shownOf.get(thread) !== words) thread.comments = entries.map(comment);
      }
      this.shownOf.set(thread, words);
      this.dataOf.set(thread, t);
      const label = threadLabel(t, several);
      if (thread.label !== label) thread.label = label;
      const context = threadContext(t);
      if (thread.contextValue !== context) thread.contextValue = context;
      thread.canReply = true;
      next.set(k, thread);
    }
    for (const t of old.values()) t.dispose();
    if (next.size === 0) this.threads.delete(key);
    else this.threads.set(key, next);
  }

  /**
   * actionOf is the server's action on the thread's first line titled title, or title followed by
   * ": " and why (the dismissal of an applied suggestion says so); with prefix, any title
   * starting with it. Where several reviews comment on the file, the server's titles name the
   * review.
   */
  private async actionOf(thread: vscode.CommentThread, title: string, prefix = false): Promise<vscode.CodeAction | undefined> {
    const t = this.dataOf.get(thread);
    const doc = await vscode.workspace.openTextDocument(thread.uri);
    const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
    const actions = await this.serverActions(doc, new vscode.Range(range.start.line, 0, range.start.line, 0));
    const inReview = t !== undefined ? ` · in ${t.reviewName}` : '';
    const bare = (a: vscode.CodeAction) => (a.title.endsWith(inReview) ? a.title.slice(0, -inReview.length) : a.title);
    const named = (a: vscode.CodeAction) => !a.title.includes(' · in ') || a.title.endsWith(inReview);
    return actions.find((a) => named(a) && (prefix ? bare(a).startsWith(title) : bare(a) === title || bare(a).startsWith(title + ': ')));
  }

  /**
   * edited tells, in the status bar, that an edit of the review is in its buffer, unsaved: it is
   * saved as any edit is, by the person (the review need not be open in a tab: Save All, or
   * Ctrl+S once it is).
   */
  private edited(uri: vscode.Uri, what: string): void {
    vscode.window.setStatusBarMessage(`lreview: ${what} is in ${path.basename(uri.fsPath)}, not saved yet`, 10_000);
  }

  /** reply writes the thread widget's text as a reply in the review: Markdown in, the server writes the JSON string. */
  private async reply(reply: vscode.CommentReply): Promise<void> {
    const t = this.dataOf.get(reply.thread);
    const c = running(this.get);
    if (t === undefined || c === undefined) {
      void vscode.window.showWarningMessage('lreview: this comment cannot be replied to now (the language server is not running)');
      return;
    }
    if (reply.text.trim() === '') {
      void vscode.window.showInformationMessage('lreview: type the reply first');
      return;
    }
    try {
      await c.sendRequest('workspace/executeCommand', { command: 'lreview.reply', arguments: [t.review, t.comment, reply.text] });
    } catch (e) {
      void vscode.window.showWarningMessage(`lreview: the reply to ${t.comment} was not written: ${(e as Error).message}`);
      return;
    }
    this.edited(c.protocol2CodeConverter.asUri(t.review), `the reply to ${t.comment}`);
  }

  private async dismiss(thread: vscode.CommentThread): Promise<void> {
    const t = this.dataOf.get(thread);
    if (t === undefined) return;
    const action = await this.actionOf(thread, `Dismiss ${t.comment}`);
    if (action?.edit === undefined) {
      void vscode.window.showWarningMessage(`lreview: ${t.comment} cannot be dismissed from here`);
      return;
    }
    if (!(await vscode.workspace.applyEdit(action.edit))) {
      void vscode.window.showWarningMessage(`lreview: ${t.comment} was not dismissed: the review changed meanwhile, try again`);
      return;
    }
    for (const [uri] of action.edit.entries()) this.edited(uri, `${t.comment}'s dismissal`);
  }

  /** applySuggestion applies the thread's suggestion to the source, as the light bulb's action does; the source is left to save. */
  private async applySuggestion(thread: vscode.CommentThread): Promise<void> {
    const t = this.dataOf.get(thread);
    if (t === undefined) return;
    const action = await this.actionOf(thread, `Apply ${t.comment}'s suggestion`, true);
    if (action?.edit === undefined) {
      void vscode.window.showWarningMessage(`lreview: ${t.comment}'s suggestion cannot be applied here: the code changed since the review, or it is applied`);
      return;
    }
    if (!(await vscode.workspace.applyEdit(action.edit))) {
      void vscode.window.showWarningMessage(`lreview: ${t.comment}'s suggestion was not applied: the file changed meanwhile, try again`);
    }
  }
}

function comment(e: Entry): vscode.Comment {
  return { body: new vscode.MarkdownString(e.body), mode: vscode.CommentMode.Preview, author: { name: e.author }, label: e.label, timestamp: e.at };
}
