// The threads a source file's comments make, from the data the server's diagnostics carry.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { threadContext, threadData, threadEntries, threadKey, threadLabel } from '../src/threads';

const data = {
  review: 'file:///w/reviews/handler.review.json',
  reviewName: 'handler.review.json',
  comment: 'c1',
  author: 'assistant',
  state: 'active',
  body: 'Return the error 🚀.\n\n```suggestion\n    return err\n```',
  at: '2026-01-02T03:04:05Z',
  replies: [{ author: 'e2e', body: 'Done · in x.review.json: "quoted"', at: 'not a date' }, { author: '', body: ' ' }],
  suggestion: { lines: ['    return err'] },
  outdated: false,
  onRemovedLines: false,
  applied: false,
  location: { uri: 'file:///w/reviews/handler.review.json', range: { start: { line: 22, character: 14 }, end: { line: 22, character: 40 } } },
};

test('a thread is read from the data, its words as the review holds them', () => {
  const t = threadData(data);
  assert.ok(t);
  const entries = threadEntries(t);
  assert.equal(entries.length, 3);
  assert.deepEqual(entries[0], { author: 'assistant', body: data.body, label: 'c1', at: new Date('2026-01-02T03:04:05Z') });
  // A reply's words are not read as metadata, whatever they say.
  assert.deepEqual(entries[1], { author: 'e2e', body: 'Done · in x.review.json: "quoted"', at: undefined });
  assert.deepEqual(entries[2], { author: '(no author)', body: '*(no text yet)*', at: undefined });
  assert.deepEqual(t.suggestion, { lines: ['    return err'] });
  assert.equal(threadKey(t), 'file:///w/reviews/handler.review.json\nc1');
  assert.equal(threadLabel(t, false), 'c1');
  assert.equal(threadLabel(t, true), 'c1 · handler.review.json');
  assert.equal(threadContext(t), 'lreview-comment-suggestion');
});

test('an applied suggestion says so, and its thread offers no Apply Suggestion', () => {
  const t = threadData({ ...data, applied: true });
  assert.ok(t?.applied);
  assert.equal(threadLabel(t!, false), 'c1 · suggestion applied');
  assert.equal(threadLabel(t!, true), 'c1 · suggestion applied · handler.review.json');
  assert.equal(threadEntries(t!)[0].label, 'c1 · suggestion applied');
  assert.equal(threadContext(t!), 'lreview-comment-applied');
  assert.equal(threadContext(threadData({ ...data, suggestion: undefined })!), 'lreview-comment');
  assert.equal(threadData({ ...data, applied: 'yes' })?.applied, false);
});

test('an outdated comment on removed lines says so beside its name', () => {
  const t = threadData({ ...data, outdated: true, onRemovedLines: true, suggestion: undefined });
  assert.equal(t?.suggestion, undefined);
  assert.equal(threadEntries(t!)[0].label, 'c1 · on removed lines · outdated');
});

test('data that is not a thread is no thread', () => {
  for (const d of [undefined, null, 'c1', {}, { ...data, replies: undefined }, { ...data, body: 3 }]) {
    assert.equal(threadData(d), undefined, JSON.stringify(d));
  }
});
