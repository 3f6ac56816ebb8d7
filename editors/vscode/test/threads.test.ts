// The thread a source diagnostic names, and its entries in the hover of its line.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { threadEntries, threadOf } from '../src/threads';

test('a thread is named by its comment, and by its review where several are in scope', () => {
  assert.deepEqual(threadOf('c1: Return the error 🚀.'), { name: 'c1' });
  assert.deepEqual(threadOf('c3 (e2e): typed at once · outdated: the code changed since the review · in drifted.review.json'), {
    name: 'c3',
    review: 'drifted.review.json',
  });
  assert.deepEqual(threadOf('c2: The old call ignored errors. · on removed lines · in handler.review.json'), {
    name: 'c2',
    review: 'handler.review.json',
  });
});

// The hover of line 72 when two reviews have a c1 there: each thread's first entry names its review.
const hover = [
  '**`c1`** by **assistant** · active · `internal/api/handler.go` RIGHT 72 · `drifted.review.json`\n\nerr is assigned and discarded.',
  '**`c1`** · active · `internal/api/handler.go` RIGHT 72–73 · `handler.review.json`\n\nReturn the error 🚀.',
  '**Reply 1** by **e2e**\n\nDone.',
  '**`c2`** · active · `internal/api/handler.go` LEFT 72 · `handler.review.json`\n\nThe old call ignored errors.',
].join('\n\n---\n\n');

test('a thread takes its own entries from the hover, replies included', () => {
  const mine = threadEntries(hover, 'c1', 'handler.review.json');
  assert.equal(mine?.length, 2);
  assert.match(mine?.[0] ?? '', /Return the error/);
  assert.match(mine?.[1] ?? '', /^\*\*Reply 1\*\* by \*\*e2e\*\*/);
  assert.match(threadEntries(hover, 'c1', 'drifted.review.json')?.[0] ?? '', /err is assigned/);
  assert.match(threadEntries(hover, 'c1')?.[0] ?? '', /err is assigned/, 'one review in scope: the first c1');
});

test('a thread the hover does not hold gets no other comment\'s text', () => {
  assert.equal(threadEntries(hover, 'c3'), undefined);
  assert.equal(threadEntries(hover, 'c2', 'drifted.review.json'), undefined);
});
