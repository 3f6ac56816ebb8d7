// The comment threads of a source file, from the thread each of the server's source diagnostics
// carries as data (ThreadData, README's "Threads as data"): the review's words, never a message
// or a hover parsed back. No vscode import, so the unit tests run it as it is.

/** A reply of a thread. */
export interface ThreadReply {
  author: string;
  body: string;
  at?: string;
}

/** The thread a source diagnostic carries: the server's ThreadData. */
export interface ThreadData {
  review: string;
  reviewName: string;
  comment: string;
  author: string;
  state: string;
  body: string;
  at?: string;
  replies: ThreadReply[];
  suggestion?: { lines: string[] };
  outdated: boolean;
  onRemovedLines: boolean;
  /** The file holds the suggestion where the comment's lines were. */
  applied: boolean;
  location: { uri: string; range: unknown };
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** threadData checks a diagnostic's data is a thread, and answers it, or undefined. */
export function threadData(data: unknown): ThreadData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  if (!isString(d.review) || !isString(d.comment) || !isString(d.body) || !Array.isArray(d.replies)) return undefined;
  const replies = d.replies.filter((r): r is ThreadReply => typeof r === 'object' && r !== null && isString((r as ThreadReply).body));
  const lines = (d.suggestion as { lines?: unknown } | undefined)?.lines;
  return {
    review: d.review,
    reviewName: isString(d.reviewName) ? d.reviewName : '',
    comment: d.comment,
    author: isString(d.author) ? d.author : '',
    state: isString(d.state) ? d.state : 'active',
    body: d.body,
    at: isString(d.at) ? d.at : undefined,
    replies: replies.map((r) => ({ author: isString(r.author) ? r.author : '', body: r.body, at: isString(r.at) ? r.at : undefined })),
    suggestion: Array.isArray(lines) && lines.every(isString) ? { lines } : undefined,
    outdated: d.outdated === true,
    onRemovedLines: d.onRemovedLines === true,
    applied: d.applied === true,
    location: (d.location as ThreadData['location']) ?? { uri: d.review, range: undefined },
  };
}

/** threadKey names a thread across publishes: its review and its comment. */
export function threadKey(t: ThreadData): string {
  return `${t.review}\n${t.comment}`;
}

/** An entry of a thread as a comment widget shows it: who, what, and a label beside the name. */
export interface Entry {
  author: string;
  body: string;
  label?: string;
  at?: Date;
}

function when(at: string | undefined): Date | undefined {
  if (at === undefined) return undefined;
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * threadEntries are the thread's comment and replies, each with its author and its words: the
 * Comments panel's rows read the comment's text, as GitHub's do. The first entry's label says what
 * the words cannot: the comment's name, and that it is on removed lines, outdated or its
 * suggestion applied.
 */
export function threadEntries(t: ThreadData): Entry[] {
  const marks = [t.comment];
  if (t.onRemovedLines) marks.push('on removed lines');
  if (t.outdated) marks.push('outdated');
  if (t.applied) marks.push(APPLIED);
  const text = (b: string) => (b.trim() === '' ? '*(no text yet)*' : b);
  return [
    { author: t.author || '(no author)', body: text(t.body), label: marks.join(' · '), at: when(t.at) },
    ...t.replies.map((r) => ({ author: r.author || '(no author)', body: text(r.body), at: when(r.at) })),
  ];
}

/** What a thread whose suggestion the file holds says beside its name. */
export const APPLIED = 'suggestion applied';

/**
 * threadLabel is a thread's title: its comment, that its suggestion is applied (the header says
 * why the Apply Suggestion button is gone), and its review where several comment on the file.
 */
export function threadLabel(t: ThreadData, severalReviews: boolean): string {
  const parts = [t.comment];
  if (t.applied) parts.push(APPLIED);
  if (severalReviews && t.reviewName !== '') parts.push(t.reviewName);
  return parts.join(' · ');
}

/**
 * threadContext is the thread's contextValue, which decides its title's buttons (package.json's
 * comments/commentThread/title): Apply Suggestion only for a suggestion not applied yet.
 */
export function threadContext(t: ThreadData): string {
  if (t.suggestion === undefined) return 'lreview-comment';
  return t.applied ? 'lreview-comment-applied' : 'lreview-comment-suggestion';
}
