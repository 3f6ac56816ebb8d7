// Integration with the real server: launches the binary named by $LREVIEW_LSP exactly as the
// extension does (`<binary> --stdio`), speaks LSP to it the way VS Code does (utf-16 positions
// only), and checks diagnostics and semantic tokens against the legend in package.json.
//
//   LREVIEW_LSP=/path/to/lreview-lsp npm test

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type {
  Diagnostic,
  InitializeParams,
  InitializeResult,
  PublishDiagnosticsParams,
  SemanticTokens,
} from 'vscode-languageserver-protocol';

const pkgDir = path.resolve(__dirname, '..', '..');
const fixtures = path.join(pkgDir, 'test', 'fixtures');
// Fixtures other tests share, kept once: the spec's example and the
// drifted review the Vim, Helix and Emacs tests open too.
const specExample = path.join(pkgDir, '..', '..', 'examples', 'auth.review.json');
const driftedReview = path.join(pkgDir, '..', 'vim', 'test', 'fixtures', 'drift.review.json');
const serverEnv = process.env.LREVIEW_LSP;
const skip = serverEnv
  ? false
  : 'LREVIEW_LSP is not set: set it to a built lreview-lsp binary to run the server integration tests';

const legendFromPackage: string[] = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).contributes.semanticTokenTypes.map(
  (t: { id: string }) => t.id,
);

interface Session {
  child: ChildProcessWithoutNullStreams;
  conn: ProtocolConnection;
  stderr: () => string;
  init: InitializeResult;
  /** Resolves with the first publishDiagnostics for uri that satisfies pred. */
  diagnostics(uri: string, pred: (d: Diagnostic[]) => boolean, what: string): Promise<Diagnostic[]>;
  close(): Promise<void>;
}

async function startServer(): Promise<Session> {
  const binary = path.resolve(serverEnv as string);
  assert.ok(fs.existsSync(binary), `LREVIEW_LSP=${serverEnv}: no file at ${binary}`);
  const child = spawn(binary, ['--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = new Map<string, Diagnostic[][]>();
  const waiters: { uri: string; pred: (d: Diagnostic[]) => boolean; resolve: (d: Diagnostic[]) => void }[] = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    const list = published.get(p.uri) ?? [];
    list.push(p.diagnostics);
    published.set(p.uri, list);
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i];
      if (w.uri === p.uri && w.pred(p.diagnostics)) {
        waiters.splice(i, 1);
        w.resolve(p.diagnostics);
      }
    }
  });
  // Requests a server may send to its client; answered the way VS Code would.
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((it) =>
      it.section === 'lreview' || it.section === undefined
        ? { author: 'tester', diagnostics: { disabled: [] } }
        : null,
    ),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('client/unregisterCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('window/showMessageRequest', () => null);
  conn.onRequest('workspace/semanticTokens/refresh', () => null);
  conn.onRequest('workspace/diagnostic/refresh', () => null);
  conn.onNotification('window/logMessage', () => undefined);
  conn.onNotification('window/showMessage', () => undefined);
  conn.onNotification('$/progress', () => undefined);
  conn.onNotification('telemetry/event', () => undefined);
  conn.listen();

  const params: InitializeParams = {
    processId: process.pid,
    clientInfo: { name: 'lreview-vscode-test', version: '0.1.0' },
    rootUri: null,
    workspaceFolders: null,
    initializationOptions: { author: 'tester', diagnostics: { disabled: [] } },
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: {
        synchronization: { dynamicRegistration: true, didSave: true },
        publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true, versionSupport: false },
        codeAction: {
          dataSupport: true,
          resolveSupport: { properties: ['edit'] },
          codeActionLiteralSupport: {
            codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll'] },
          },
        },
        semanticTokens: {
          dynamicRegistration: true,
          requests: { full: { delta: true }, range: true },
          tokenTypes: legendFromPackage,
          tokenModifiers: [],
          formats: ['relative'],
          overlappingTokenSupport: false,
          multilineTokenSupport: false,
        },
      },
    },
  };
  const init = await withTimeout(conn.sendRequest<InitializeResult>('initialize', params), 10_000, 'initialize', () => stderr);
  await conn.sendNotification('initialized', {});

  return {
    child,
    conn,
    stderr: () => stderr,
    init,
    diagnostics(uri, pred, what) {
      const seen = published.get(uri) ?? [];
      const hit = seen.find(pred);
      if (hit) return Promise.resolve(hit);
      return withTimeout(
        new Promise<Diagnostic[]>((resolve) => waiters.push({ uri, pred, resolve })),
        10_000,
        `${what} (published so far: ${JSON.stringify(published.get(uri) ?? [])})`,
        () => stderr,
      );
    },
    async close() {
      try {
        await withTimeout(conn.sendRequest('shutdown'), 5_000, 'shutdown', () => stderr);
        await conn.sendNotification('exit');
        const code = await withTimeout(exited, 5_000, 'exit after shutdown', () => stderr);
        assert.equal(code, 0, `exit code after shutdown/exit: got ${code}, want 0`);
      } finally {
        conn.dispose();
        if (child.exitCode === null) child.kill();
      }
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string, stderr: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}; server stderr:\n${stderr()}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function open(s: Session, name: string): { uri: string; text: string } {
  const file = path.resolve(fixtures, name);
  const text = fs.readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  void s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'lreview', version: 1, text } });
  return { uri, text };
}

function codes(diags: Diagnostic[]): string[] {
  return diags.map((d) => String(d.code));
}

interface AbsToken {
  line: number;
  char: number;
  length: number;
  type: string;
}

/** decode turns relative-encoded semantic tokens into absolute ones named by the legend. */
function decode(data: number[], legend: string[]): AbsToken[] {
  assert.equal(data.length % 5, 0, `semantic token data length ${data.length} is not a multiple of 5`);
  const out: AbsToken[] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dLine, dChar, length, typeIdx, mods] = data.slice(i, i + 5);
    line += dLine;
    char = dLine === 0 ? char + dChar : dChar;
    assert.ok(typeIdx < legend.length, `token type index ${typeIdx} outside the legend`);
    assert.equal(mods, 0, 'the legend has no modifiers');
    out.push({ line, char, length, type: legend[typeIdx] });
  }
  return out;
}

/** Line index and column of the opening quote of the first line containing needle. */
function locate(text: string, needle: string): { line: number; quote: number; lineText: string } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `fixture has ${JSON.stringify(needle)}`);
  return { line, quote: lines[line].indexOf('"'), lineText: lines[line] };
}

test('server: initialize advertises the shared legend and utf-16', { skip, timeout: 60_000 }, async () => {
  const s = await startServer();
  try {
    const caps = s.init.capabilities;
    assert.ok(
      caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16',
      `positionEncoding: got ${caps.positionEncoding}, want utf-16 (the only one offered)`,
    );
    const stp = caps.semanticTokensProvider;
    assert.ok(stp, 'semanticTokensProvider is advertised');
    assert.deepEqual(stp.legend.tokenTypes, legendFromPackage, "server legend vs package.json's contributes.semanticTokenTypes");
    assert.deepEqual(legendFromPackage, ['diffHeader', 'diffHunk', 'diffAdded', 'diffRemoved', 'diffContext', 'diffNoNewline']);
    assert.ok(stp.full, 'full semantic tokens are supported');
    // The language client registers a VS Code command for each of the server's: one the
    // extension registers itself too would stop the client from starting.
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    const own: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);
    const clash = (caps.executeCommandProvider?.commands ?? []).filter((c) => own.includes(c));
    assert.deepEqual(clash, [], "the server's commands the extension registers too");
  } finally {
    await s.close();
  }
});

test('server: diagnostics for the spec example and a drifted comment', { skip, timeout: 60_000 }, async () => {
  const s = await startServer();
  try {
    const example = open(s, specExample);
    const exDiags = await s.diagnostics(example.uri, (d) => codes(d).includes('hunk-count-mismatch'), 'hunk-count-mismatch on the example');
    for (const d of exDiags) {
      assert.equal(d.source, 'lreview', `diagnostic ${d.code}: source got ${d.source}, want lreview`);
    }
    assert.ok(!codes(exDiags).includes('snippet-mismatch'), `example: got ${codes(exDiags)}, want no snippet-mismatch`);
    assert.ok(!codes(exDiags).includes('orphaned-anchor'), `example: got ${codes(exDiags)}, want no orphaned-anchor`);
    const hunk = exDiags.find((d) => d.code === 'hunk-count-mismatch')!;
    assert.equal(hunk.range.start.line, locate(example.text, '"@@ -70,5').line, 'hunk-count-mismatch sits on the hunk header element');

    const drifted = open(s, driftedReview);
    const drDiags = await s.diagnostics(drifted.uri, (d) => codes(d).includes('snippet-mismatch'), 'snippet-mismatch on the drifted review');
    const mismatch = drDiags.find((d) => d.code === 'snippet-mismatch')!;
    assert.equal(mismatch.source, 'lreview');
    assert.equal(mismatch.severity, 2, `snippet-mismatch severity: got ${mismatch.severity}, want 2 (warning)`);
    const snip = locate(drifted.text, '"snippet": "result, err');
    assert.equal(mismatch.range.start.line, snip.line, 'snippet-mismatch sits on the snippet line');
    const valueCol = snip.lineText.indexOf('"result');
    assert.ok(
      mismatch.range.start.character >= valueCol && mismatch.range.start.character <= valueCol + 1,
      `snippet-mismatch starts at character ${mismatch.range.start.character}, want the snippet value at ${valueCol}`,
    );
    assert.ok(!codes(drDiags).includes('orphaned-anchor'), 'RIGHT 71 exists in the image: not orphaned');
    for (const d of drDiags) {
      assert.equal(d.source, 'lreview', `diagnostic ${d.code}: source got ${d.source}, want lreview`);
    }
  } finally {
    await s.close();
  }
});

test('server: semantic tokens decode with the package.json legend', { skip, timeout: 60_000 }, async () => {
  const s = await startServer();
  try {
    const legend = s.init.capabilities.semanticTokensProvider?.legend.tokenTypes ?? [];
    assert.deepEqual(legend, legendFromPackage);
    const doc = open(s, specExample);
    const result = await withTimeout(
      s.conn.sendRequest<SemanticTokens | null>('textDocument/semanticTokens/full', { textDocument: { uri: doc.uri } }),
      10_000,
      'semanticTokens/full',
      s.stderr,
    );
    assert.ok(result, 'semanticTokens/full returned tokens');
    const toks = decode(result.data, legendFromPackage);

    const check = (needle: string, type: string, length?: number) => {
      const at = locate(doc.text, needle);
      const tok = toks.find((t) => t.line === at.line && t.char === at.quote + 1);
      assert.ok(tok, `no token starts just inside the quote of ${JSON.stringify(needle)} (line ${at.line}); tokens on that line: ${JSON.stringify(toks.filter((t) => t.line === at.line))}`);
      assert.equal(tok.type, type, `${needle}: got ${tok.type}, want ${type}`);
      const content = at.lineText.slice(at.quote + 1, at.lineText.lastIndexOf('"'));
      assert.equal(tok.length, length ?? content.length, `${needle}: token length got ${tok.length}, want ${length ?? content.length}`);
    };
    check('"+    result, err := calculate(input)"', 'diffAdded');
    check('"+    _ = err"', 'diffAdded');
    check('"-    result := calculate(input)"', 'diffRemoved');
    check('"     ctx := context.Background()"', 'diffContext');
    check('"diff --git a/internal', 'diffHeader');
    check('"--- a/internal', 'diffHeader');
    check('"+++ b/internal', 'diffHeader');
    // The hunk token covers "@@ -70,5 +70,6 @@" only, not the section text after it.
    check('"@@ -70,5 +70,6 @@', 'diffHunk', '@@ -70,5 +70,6 @@'.length);

    // Nothing outside the patch array is a diff token.
    const patchStart = locate(doc.text, '"patch": [').line;
    const patchEnd = locate(doc.text, '"comments": [').line;
    for (const t of toks) {
      assert.ok(t.line > patchStart && t.line < patchEnd, `token ${JSON.stringify(t)} outside the patch array`);
    }
  } finally {
    await s.close();
  }
});
