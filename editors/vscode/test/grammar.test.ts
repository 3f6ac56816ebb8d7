// The TextMate grammar, run by the same engine VS Code uses (vscode-textmate + the oniguruma
// wasm), against the fixture files: each assertion names a piece of text in a fixture and the
// scopes the token covering it must (not) carry.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const pkgDir = path.resolve(__dirname, '..', '..');
const fixtures = path.join(pkgDir, 'test', 'fixtures');
// The spec's example, kept once, in examples/.
const specExample = path.join(pkgDir, '..', '..', 'examples', 'auth.review.json');
const grammarPath = path.join(pkgDir, 'syntaxes', 'lreview.tmLanguage.json');

interface Tok {
  line: number;
  start: number;
  end: number;
  text: string;
  scopes: string[];
}

let registryPromise: Promise<vsctm.Registry> | undefined;

function registry(): Promise<vsctm.Registry> {
  registryPromise ??= (async () => {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    return new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
        createOnigString: (s: string) => new oniguruma.OnigString(s),
      }),
      loadGrammar: async (scopeName: string) => {
        if (scopeName !== 'source.lreview') {
          return null; // self-contained: nothing else may be needed
        }
        return vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath);
      },
    });
  })();
  return registryPromise;
}

async function tokenize(text: string): Promise<{ lines: string[]; toks: Tok[] }> {
  const grammar = await (await registry()).loadGrammar('source.lreview');
  assert.ok(grammar, 'grammar source.lreview did not load');
  const lines = text.split(/\r?\n/);
  const toks: Tok[] = [];
  let stack = vsctm.INITIAL;
  lines.forEach((lineText, line) => {
    const r = grammar.tokenizeLine(lineText, stack);
    for (const t of r.tokens) {
      toks.push({ line, start: t.startIndex, end: Math.min(t.endIndex, lineText.length), text: lineText.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    }
    stack = r.ruleStack;
  });
  return { lines, toks };
}

async function fixture(name: string) {
  const text = fs.readFileSync(path.resolve(fixtures, name), 'utf8');
  const { lines, toks } = await tokenize(text);
  /** Position of the nth occurrence of needle (by line), plus an offset inside it. */
  const find = (needle: string, offset = 0, nth = 0) => {
    let seen = 0;
    for (let i = 0; i < lines.length; i++) {
      let from = 0;
      for (;;) {
        const at = lines[i].indexOf(needle, from);
        if (at < 0) break;
        if (seen++ === nth) return { line: i, col: at + offset };
        from = at + 1;
      }
    }
    assert.fail(`${name}: text ${JSON.stringify(needle)} (occurrence ${nth}) not found`);
  };
  /** Scopes of the token covering the character at needle+offset. */
  const scopesAt = (needle: string, offset = 0, nth = 0): string[] => {
    const { line, col } = find(needle, offset, nth);
    const tok = toks.find((t) => t.line === line && t.start <= col && col < t.end);
    assert.ok(tok, `${name}: no token at ${JSON.stringify(needle)}+${offset}`);
    return tok.scopes;
  };
  /** The token covering needle+offset. */
  const tokenAt = (needle: string, offset = 0, nth = 0): Tok => {
    const { line, col } = find(needle, offset, nth);
    const tok = toks.find((t) => t.line === line && t.start <= col && col < t.end);
    assert.ok(tok, `${name}: no token at ${JSON.stringify(needle)}+${offset}`);
    return tok;
  };
  return { lines, toks, scopesAt, tokenAt };
}

function has(scopes: string[], scope: string): boolean {
  return scopes.some((s) => s === scope || s.startsWith(scope + '.'));
}

function assertHas(scopes: string[], scope: string, what: string): void {
  assert.ok(has(scopes, scope), `${what}: got scopes [${scopes.join(', ')}], want ${scope}`);
}

function assertLacks(scopes: string[], scope: string, what: string): void {
  assert.ok(!has(scopes, scope), `${what}: got scopes [${scopes.join(', ')}], want no ${scope}`);
}

test('grammar: example review (array patch)', async () => {
  const { scopesAt } = await fixture(specExample);

  // File headers.
  const git = scopesAt('"diff --git a/internal', 1);
  assertHas(git, 'meta.diff.header.lreview', 'diff --git line');
  assertHas(git, 'string.quoted.double.json', 'diff --git line');
  assertHas(scopesAt('--- a/internal', 4), 'meta.diff.header.from-file', '--- line');
  assertHas(scopesAt('--- a/internal', 4), 'meta.diff.header.lreview', '--- line');
  assertHas(scopesAt('+++ b/internal', 4), 'meta.diff.header.to-file', '+++ line');
  assertLacks(scopesAt('+++ b/internal', 4), 'markup.inserted', '+++ line');
  assertLacks(scopesAt('--- a/internal', 4), 'markup.deleted', '--- line');

  // Hunk header: the range is meta.diff.range.unified, the section text after @@ is not.
  assertHas(scopesAt('@@ -70,5 +70,6 @@'), 'meta.diff.range.unified', 'hunk range opening @@');
  assertHas(scopesAt('@@ -70,5 +70,6 @@', 4), 'meta.diff.range.unified', 'hunk range numbers');
  assertHas(scopesAt('@@ -70,5 +70,6 @@', 16), 'meta.diff.range.unified', 'hunk range closing @@');
  const section = scopesAt('func Handle(input');
  assertLacks(section, 'meta.diff.range', 'hunk section text');
  assertHas(section, 'meta.diff.section.lreview', 'hunk section text');

  // Body lines.
  assertHas(scopesAt('"-    result := calculate', 1), 'markup.deleted.diff', 'removed line marker');
  assertHas(scopesAt('result := calculate'), 'markup.deleted.diff', 'removed line text');
  assertHas(scopesAt('"+    result, err', 1), 'markup.inserted.diff', 'added line marker');
  assertHas(scopesAt('result, err := calculate(input)",'), 'markup.inserted.diff', 'added line text');
  assertHas(scopesAt('_ = err'), 'markup.inserted.diff', 'second added line');
  assertHas(scopesAt('ctx := context.Background()'), 'meta.diff.context.lreview', 'context line');
  assertLacks(scopesAt('ctx := context.Background()'), 'markup.inserted', 'context line');
  assertLacks(scopesAt('ctx := context.Background()'), 'markup.deleted', 'context line');

  // The closing quote of a diff line is punctuation, not part of the line's text.
  const closing = scopesAt('_ = err"', 7);
  assertHas(closing, 'punctuation.definition.string.end.json', 'closing quote');
  assertLacks(closing, 'markup.inserted', 'closing quote');

  // Outside the patch: ordinary JSON.
  assertHas(scopesAt('"leanreview_review"', 1), 'support.type.property-name.json', 'key');
  assertHas(scopesAt('"patch"', 1), 'support.type.property-name.json', 'patch key');
  assertHas(scopesAt('72,'), 'constant.numeric.json', 'number');
  assertHas(scopesAt('auth refactor'), 'string.quoted.double.json', 'title value');
  // The comment's snippet quotes an added line without its marker: plain string.
  const snippet = scopesAt('"snippet": "result', 12);
  assertHas(snippet, 'string.quoted.double.json', 'snippet value');
  assertLacks(snippet, 'markup.inserted', 'snippet value');
  assertLacks(snippet, 'meta.diff', 'snippet value');
});

test('grammar: escapes inside diff lines keep the line scope', async () => {
  const { scopesAt } = await fixture('escapes.review.json');
  const line = 'say \\"caf\\u00e9\\"\\there';

  const quote = scopesAt(line, 4); // \"
  assertHas(quote, 'markup.inserted.diff', 'escaped quote');
  assertHas(quote, 'constant.character.escape.json', 'escaped quote');
  const uni = scopesAt(line, line.indexOf('\\u00e9')); // \u00e9
  assertHas(uni, 'markup.inserted.diff', '\\u00e9');
  assertHas(uni, 'constant.character.escape.json', '\\u00e9');
  const tab = scopesAt(line, line.indexOf('\\there')); // \t
  assertHas(tab, 'markup.inserted.diff', '\\t');
  assertHas(tab, 'constant.character.escape.json', '\\t');
  // The text after the escapes is still the added line, and the string closes where it should.
  assertHas(scopesAt(line, line.indexOf('here')), 'markup.inserted.diff', 'text after \\t');
  assertLacks(scopesAt(line, line.indexOf('here')), 'constant.character.escape', 'text after \\t');
  assertHas(scopesAt('+path C:\\\\tmp', 8), 'constant.character.escape.json', 'escaped backslash');
  assertHas(scopesAt('+path C:\\\\tmp', 10), 'markup.inserted.diff', 'text after escaped backslash');
  assertHas(scopesAt('+<b>&amp;</b>', 3), 'markup.inserted.diff', 'literal < > &');

  // Extended headers and the no-newline marker.
  assertHas(scopesAt('new file mode 100644'), 'meta.diff.header.lreview', 'new file mode');
  assertHas(scopesAt('index 0000000'), 'meta.diff.header.lreview', 'index');
  assertHas(scopesAt('--- /dev/null', 4), 'meta.diff.header.from-file', '--- /dev/null');
  const nonl = scopesAt('No newline at end of file');
  assertHas(nonl, 'comment.line.diff', 'no-newline marker');
  assertLacks(nonl, 'markup.inserted', 'no-newline marker');

  // A hunk header with section text, and the second file's lines.
  assertHas(scopesAt('@@ -1,3 +1,3 @@ package main', 0), 'meta.diff.range.unified', 'hunk range');
  assertLacks(scopesAt('@@ -1,3 +1,3 @@ package main', 16), 'meta.diff.range', 'section after @@');
  assertHas(scopesAt('-var x = 1', 1), 'markup.deleted.diff', 'removed');
  assertHas(scopesAt('+var x = 2', 1), 'markup.inserted.diff', 'added');
  assertHas(scopesAt('// end'), 'meta.diff.context.lreview', 'context line with slashes');

  // Strings outside the top-level patch array are never diff lines, whatever they start with.
  for (const [needle, what] of [
    ['+ not a diff line', 'title starting with +'],
    ['-also not a diff line', 'summary starting with -'],
    ['+1, and this body', 'comment body starting with +'],
    ['+not a diff either', 'a nested "patch" member'],
  ] as const) {
    const s = scopesAt(needle, 1);
    assertHas(s, 'string.quoted.double.json', what);
    assertLacks(s, 'markup.inserted', what);
    assertLacks(s, 'markup.deleted', what);
  }
});

test('grammar: single-string patch is split at \\n escapes', async () => {
  const { scopesAt, lines } = await fixture('string-form.review.json');
  const patchLine = lines.find((l) => l.includes('"patch": "'));
  assert.ok(patchLine, 'fixture has a string patch');

  assertHas(scopesAt('"patch": "diff --git', 11), 'meta.diff.header.lreview', 'first embedded line');
  assertHas(scopesAt('\\n--- a/a.txt', 3), 'meta.diff.header.from-file', 'embedded ---');
  assertHas(scopesAt('\\n+++ b/a.txt', 3), 'meta.diff.header.to-file', 'embedded +++');
  assertHas(scopesAt('\\n@@ -1,2 +1,2 @@', 3), 'meta.diff.range.unified', 'embedded hunk');
  assertLacks(scopesAt('@@ intro', 3), 'meta.diff.range', 'embedded hunk section');
  assertHas(scopesAt('\\n keep', 3), 'meta.diff.context.lreview', 'embedded context');
  assertHas(scopesAt('\\n-old', 3), 'markup.deleted.diff', 'embedded removed');
  assertHas(scopesAt('\\n+new', 3), 'markup.inserted.diff', 'embedded added');
  // The \n separating lines is an escape and belongs to no diff line.
  const sep = scopesAt('\\n+new');
  assertHas(sep, 'constant.character.escape.json', 'line separator');
  assertLacks(sep, 'markup.deleted', 'line separator');
  // An escaped backslash followed by n is text, not a line break: the added line goes on.
  assertHas(scopesAt('\\\\n\\n\\\\ No', 2), 'markup.inserted.diff', 'literal \\\\n inside an added line');
  assertHas(scopesAt('No newline'), 'comment.line.diff', 'embedded no-newline marker');
  // The document goes on as JSON after the patch string.
  assertHas(scopesAt('"comments"', 1), 'support.type.property-name.json', 'key after the string patch');
});

test('grammar: minified document on one line', async () => {
  const { scopesAt } = await fixture('minified.review.json');
  assertHas(scopesAt('"--- a/x"', 1), 'meta.diff.header.from-file', 'minified ---');
  assertHas(scopesAt('"@@ -1 +1 @@"', 1), 'meta.diff.range.unified', 'minified hunk');
  assertHas(scopesAt('"-a"', 1), 'markup.deleted.diff', 'minified removed');
  assertHas(scopesAt('"+b"', 1), 'markup.inserted.diff', 'minified added');
  assertHas(scopesAt('"comments"', 1), 'support.type.property-name.json', 'minified key after patch');
  assertLacks(scopesAt('"comments"', 1), 'meta.diff', 'minified key after patch');
});

test('grammar: malformed input does not bleed diff scopes', async () => {
  // An unterminated diff line string ends at the end of its line; the next line is JSON again.
  const { toks } = await tokenize('{\n  "patch": [\n    "+open\n  ],\n  "comments": []\n}');
  const after = toks.filter((t) => t.line === 4 && t.text.includes('comments'));
  assert.ok(after.length > 0, 'tokens for the comments key');
  for (const t of after) {
    assertLacks(t.scopes, 'markup.inserted', 'key after an unterminated diff line');
  }
});

test('package.json: language detection and grammar wiring', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === 'lreview');
  assert.ok(lang, 'language lreview is contributed');
  assert.deepEqual(lang.filenamePatterns, ['*.review.json']);
  const firstLine = new RegExp(lang.firstLine);
  for (const [line, want] of [
    ['{', false],
    ['{ "leanreview_review": 1,', true],
    ['{"leanreview_review":1,"patch":[],"comments":[]}', true],
    ['  {  "leanreview_review" : 1', true],
    ['\uFEFF{"leanreview_review":1}', true],
    ['{ "title": "x", "leanreview_review": 1 }', false],
    ['"leanreview_review": 1', false],
  ] as const) {
    assert.equal(firstLine.test(line), want, `firstLine on ${JSON.stringify(line)}: got ${!want}, want ${want}`);
  }
  const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === 'lreview');
  assert.equal(grammar.scopeName, 'source.lreview');
  assert.ok(fs.existsSync(path.join(pkgDir, grammar.path)), `grammar file ${grammar.path} exists`);
  const raw = JSON.parse(fs.readFileSync(grammarPath, 'utf8'));
  assert.equal(raw.scopeName, 'source.lreview');
  const cfg = JSON.parse(fs.readFileSync(path.join(pkgDir, lang.configuration), 'utf8'));
  assert.deepEqual(cfg.brackets, [['{', '}'], ['[', ']']]);
  assert.ok(cfg.autoClosingPairs.some((p: { open: string }) => p.open === '"'), 'auto-closes quotes');
});
