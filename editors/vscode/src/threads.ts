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
 * the words cannot: the comment's name, and that it is on removed lines or outdated.
 */
export function threadEntries(t: ThreadData): Entry[] {
  const marks = [t.comment];
  if (t.onRemovedLines) marks.push('on removed lines');
  if (t.outdated) marks.push('outdated');
  const text = (b: string) => (b.trim() === '' ? '*(no text yet)*' : b);
  return [
    { author: t.author || '(no author)', body: text(t.body), label: marks.join(' · '), at: when(t.at) },
    ...t.replies.map((r) => ({ author: r.author || '(no author)', body: text(r.body), at: when(r.at) })),
  ];
}

/** threadLabel is a thread's title: its comment, and its review where several comment on the file. */
export function threadLabel(t: ThreadData, severalReviews: boolean): string {
  return severalReviews && t.reviewName !== '' ? `${t.comment} · ${t.reviewName}` : t.comment;
}
