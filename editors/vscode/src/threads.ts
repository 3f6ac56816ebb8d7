// The comment threads of a source file, read from what the server publishes: a comment's
// diagnostic names the thread, the hover of its line holds the thread's entries. No vscode
// import, so the unit tests run it as it is.

/** The thread a source diagnostic stands for: its comment and, when several reviews are in scope, its review. */
export interface ThreadName {
  name: string;
  review?: string;
}

/**
 * threadOf reads a source diagnostic's message, "c3 (author): first line · 2 replies · in x.review.json":
 * the thread is named by the comment alone, and with several reviews on the file by its review too,
 * as the server's actions and the hover's threads are.
 */
export function threadOf(message: string): ThreadName {
  const name = message.split(':')[0].replace(/ \([^)]*\)$/, '');
  const review = / · in (\S+\.review\.json)/.exec(message)?.[1];
  return review === undefined ? { name } : { name, review };
}

/**
 * threadEntries splits the hover of a commented line into the entries of the thread named name
 * (of review, when given), or answers undefined when the hover holds no such thread: another
 * comment's text is never shown in its place.
 */
export function threadEntries(markdown: string, name: string, review?: string): string[] | undefined {
  const threads = markdown.split(/\n\n---\n\n(?=\*\*`)/).map((t) => t.split(/\n\n---\n\n/));
  return threads.find((t) => t[0].startsWith('**`' + name + '`**') && (review === undefined || t[0].includes(' · `' + review + '`')));
}
