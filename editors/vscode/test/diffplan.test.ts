// Where the diff colours go (src/diffplan.ts) and where the cursor goes after a new comment
// (src/bodycursor.ts): pure functions, tested on the shapes the server sends.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bodyCursor } from '../src/bodycursor';
import { decodeTokens, plan } from '../src/diffplan';

const LEGEND = ['diffHeader', 'diffHunk', 'diffAdded', 'diffRemoved', 'diffContext', 'diffNoNewline'];

test('decodeTokens: relative lines and starts become absolute', () => {
  // line 5 col 5 len 10 hunk; same line +20 len 3 header; line 7 col 5 len 4 removed.
  const got = decodeTokens([5, 5, 10, 1, 0, 0, 20, 3, 0, 0, 2, 5, 4, 3, 0], LEGEND);
  assert.deepEqual(got, [
    { line: 5, start: 5, length: 10, type: 'diffHunk' },
    { line: 5, start: 25, length: 3, type: 'diffHeader' },
    { line: 7, start: 5, length: 4, type: 'diffRemoved' },
  ]);
});

test('decodeTokens: unknown type indexes and a truncated tail are skipped', () => {
  assert.deepEqual(decodeTokens([0, 1, 2, 99, 0, 1, 1, 2, 2, 0, 4, 4], LEGEND), [{ line: 1, start: 1, length: 2, type: 'diffAdded' }]);
  assert.deepEqual(decodeTokens([], LEGEND), []);
});

test('plan: a patch line that fills its editor line is whole-line, shared lines get spans only', () => {
  const lines = [
    '  "patch": [',
    '    "-old",',
    '    "+new"',
    '  "patch": "@@ -1 +1 @@\\n-old\\n+new\\n"',
  ];
  const tokens = [
    { line: 1, start: 5, length: 4, type: 'diffRemoved' },
    { line: 2, start: 5, length: 4, type: 'diffAdded' },
    { line: 3, start: 12, length: 10, type: 'diffHunk' },
    { line: 3, start: 24, length: 4, type: 'diffRemoved' },
    { line: 3, start: 30, length: 4, type: 'diffAdded' },
    { line: 3, start: 0, length: 1, type: 'diffNoNewline' }, // not decorated: left to the theme
  ];
  const p = plan(tokens, (l) => lines[l]);
  assert.deepEqual(p.diffRemoved.wholeLines, [1]);
  assert.deepEqual(p.diffAdded.wholeLines, [2]);
  assert.deepEqual(p.diffRemoved.spans, [
    { line: 1, start: 5, end: 9 },
    { line: 3, start: 24, end: 28 },
  ]);
  assert.deepEqual(p.diffHunk.wholeLines, [], 'the single-string form shares its line');
  assert.deepEqual(p.diffContext, { spans: [], wholeLines: [] });
  assert.ok(!('diffNoNewline' in p), 'no decoration for the no-newline marker');
});

test('plan: a hunk header whose section text follows the range is not whole-line', () => {
  const line = '    "@@ -1,2 +1,2 @@ func f() {",';
  const p = plan([{ line: 0, start: 5, length: 15, type: 'diffHunk' }], () => line);
  assert.deepEqual(p.diffHunk.wholeLines, []);
  assert.deepEqual(p.diffHunk.spans, [{ line: 0, start: 5, end: 20 }]);
});

const pos = (line: number, character: number) => ({ line, character });

test('bodyCursor: between the quotes of the inserted empty body', () => {
  const newText = ',\n    {\n      "id": "c3",\n      "body": "",\n      "state": "active"\n    }';
  const got = bodyCursor([{ range: { start: pos(36, 5), end: pos(36, 5) }, newText }]);
  assert.deepEqual(got, pos(39, 15));
});

test('bodyCursor: a reply on one line, and edits before it that add lines', () => {
  const reply = ', "replies": [{ "author": "a", "body": "" }]';
  const got = bodyCursor([
    { range: { start: pos(2, 0), end: pos(3, 0) }, newText: 'x\ny\nz\n' }, // +2 lines
    { range: { start: pos(10, 4), end: pos(10, 4) }, newText: reply },
  ]);
  assert.deepEqual(got, pos(12, 4 + reply.indexOf('"body": ""') + '"body": "'.length));
});

test('bodyCursor: an edit ending on the same line shifts the column', () => {
  const got = bodyCursor([
    { range: { start: pos(1, 2), end: pos(1, 6) }, newText: 'ab' }, // 4 chars become 2
    { range: { start: pos(1, 10), end: pos(1, 10) }, newText: '"body": ""' },
  ]);
  assert.deepEqual(got, pos(1, 8 + '"body": "'.length));
});

test('bodyCursor: edits without an empty body leave the cursor alone', () => {
  assert.equal(bodyCursor([{ range: { start: pos(0, 0), end: pos(0, 0) }, newText: '"body": "x"' }]), undefined);
  assert.equal(bodyCursor([]), undefined);
});

test('bodyCursor: works on objects whose fields are getters (vscode.Position)', () => {
  class P {
    constructor(
      private readonly l: number,
      private readonly c: number,
    ) {}
    get line() {
      return this.l;
    }
    get character() {
      return this.c;
    }
  }
  const got = bodyCursor([{ range: { start: new P(4, 2), end: new P(4, 2) }, newText: '"body": ""' }]);
  assert.deepEqual(got, pos(4, 11));
});
