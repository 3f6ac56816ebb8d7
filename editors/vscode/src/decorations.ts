// Diff colours that follow the active theme. Semantic token colours alone are not enough: the
// default themes (Dark Modern, Light Modern) colour markup.deleted, meta.diff.range and the
// context scopes like any string, so a removed line would read like a context line, and High
// Contrast draws meta.diff.header in navy on black. The patch
// lines therefore also get decorations: the theme's own diff editor line backgrounds
// (diffEditor.insertedLineBackground / removedLineBackground) and foreground colours this
// extension contributes (lreview.diff*Foreground, with light, dark and high-contrast defaults
// that refer to the theme's git colours). What each line is comes from the server's semantic
// tokens, requested for the visible editors only.

import * as vscode from 'vscode';
import { DIFF_KINDS, decodeTokens, plan, type DiffKind, type Plan } from './diffplan';

/** The foreground colour contributed in package.json for each kind. */
const FOREGROUND: Record<DiffKind, string> = {
  diffHeader: 'lreview.diffHeaderForeground',
  diffHunk: 'lreview.diffHunkForeground',
  diffAdded: 'lreview.diffAddedForeground',
  diffRemoved: 'lreview.diffRemovedForeground',
  diffContext: 'lreview.diffContextForeground',
};

/** The diff editor's whole-line and in-line backgrounds, where a kind has one. */
const BACKGROUND: Partial<Record<DiffKind, { line: string; text: string }>> = {
  diffAdded: { line: 'diffEditor.insertedLineBackground', text: 'diffEditor.insertedTextBackground' },
  diffRemoved: { line: 'diffEditor.removedLineBackground', text: 'diffEditor.removedTextBackground' },
};

/** What the decorator needs from the language client. */
export interface TokenSource {
  /** The legend's token type names, once the server is initialized. */
  legend(): readonly string[] | undefined;
  /** textDocument/semanticTokens/full; undefined when the server is not running. */
  tokens(document: vscode.TextDocument): Promise<ArrayLike<number> | undefined>;
}

interface Types {
  text: vscode.TextEditorDecorationType;
  line?: vscode.TextEditorDecorationType;
  spanBackground?: vscode.TextEditorDecorationType;
}

/** DiffDecorator keeps the decorations of the visible lreview editors up to date. */
export class DiffDecorator implements vscode.Disposable {
  private readonly types = new Map<DiffKind, Types>();
  private readonly plans = new Map<string, { version: number; plan: Plan }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly source: TokenSource,
    private readonly languageId: string,
  ) {
    for (const kind of DIFF_KINDS) {
      const bg = BACKGROUND[kind];
      this.types.set(kind, {
        text: vscode.window.createTextEditorDecorationType({ color: new vscode.ThemeColor(FOREGROUND[kind]) }),
        line: bg && vscode.window.createTextEditorDecorationType({ isWholeLine: true, backgroundColor: new vscode.ThemeColor(bg.line) }),
        spanBackground: bg && vscode.window.createTextEditorDecorationType({ backgroundColor: new vscode.ThemeColor(bg.text) }),
      });
    }
    this.subscriptions.push(
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshVisible()),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, 150)),
      vscode.workspace.onDidCloseTextDocument((d) => this.plans.delete(d.uri.toString())),
    );
  }

  /** refreshVisible re-requests the tokens of every visible lreview editor (e.g. after a restart). */
  refreshVisible(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const cached = this.plans.get(editor.document.uri.toString());
      if (cached && cached.version === editor.document.version) {
        this.apply(editor, cached.plan);
      } else {
        this.schedule(editor.document, 0);
      }
    }
  }

  /** forget drops the cached plans, so that refreshVisible asks the (new) server again. */
  forget(): void {
    this.plans.clear();
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (document.languageId !== this.languageId) {
      return;
    }
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.update(document);
      }, delayMs),
    );
  }

  private async update(document: vscode.TextDocument): Promise<void> {
    const visible = vscode.window.visibleTextEditors.filter((e) => e.document === document);
    const legend = this.source.legend();
    if (visible.length === 0 || legend === undefined) {
      return;
    }
    const version = document.version;
    let data: ArrayLike<number> | undefined;
    try {
      data = await this.source.tokens(document);
    } catch {
      return; // the server is restarting or the request was cancelled; the next change retries
    }
    if (data === undefined || document.version !== version || document.isClosed) {
      return;
    }
    const p = plan(decodeTokens(data, legend), (line) => (line < document.lineCount ? document.lineAt(line).text : ''));
    this.plans.set(document.uri.toString(), { version, plan: p });
    for (const editor of vscode.window.visibleTextEditors.filter((e) => e.document === document)) {
      this.apply(editor, p);
    }
  }

  private apply(editor: vscode.TextEditor, p: Plan): void {
    for (const kind of DIFF_KINDS) {
      const types = this.types.get(kind)!;
      const { spans, wholeLines } = p[kind];
      const whole = new Set(wholeLines);
      editor.setDecorations(
        types.text,
        spans.map((s) => new vscode.Range(s.line, s.start, s.line, s.end)),
      );
      if (types.line) {
        editor.setDecorations(types.line, wholeLines.map((l) => new vscode.Range(l, 0, l, 0)));
      }
      if (types.spanBackground) {
        editor.setDecorations(
          types.spanBackground,
          spans.filter((s) => !whole.has(s.line)).map((s) => new vscode.Range(s.line, s.start, s.line, s.end)),
        );
      }
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) {
      clearTimeout(t);
    }
    for (const types of this.types.values()) {
      types.text.dispose();
      types.line?.dispose();
      types.spanBackground?.dispose();
    }
    for (const s of this.subscriptions) {
      s.dispose();
    }
  }
}
