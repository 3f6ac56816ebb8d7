// Where the diff colours go, decided without the `vscode` module so that it is unit-tested under
// plain node: the server's semantic tokens (the one source of truth for what each patch line is)
// are decoded, and each diff line becomes a whole-line decoration when it fills its editor line
// (the array-of-lines form of the patch) or a range decoration when it shares the line with others
// (the single-string form).

/** The server's diff token types that get a decoration; diffNoNewline is left to the theme. */
export const DIFF_KINDS = ['diffHeader', 'diffHunk', 'diffAdded', 'diffRemoved', 'diffContext'] as const;
export type DiffKind = (typeof DIFF_KINDS)[number];

/** One decoded semantic token: 0-based line, start character (UTF-16) and length, type name. */
export interface Token {
  line: number;
  start: number;
  length: number;
  type: string;
}

/** A span on one line, 0-based, end exclusive. */
export interface Span {
  line: number;
  start: number;
  end: number;
}

/** Per kind: the spans to colour, and the lines whose whole width shows that kind. */
export type Plan = Record<DiffKind, { spans: Span[]; wholeLines: number[] }>;

/**
 * decodeTokens turns LSP relative token data (5 integers per token) into absolute tokens. A type
 * index outside the legend, or a truncated tail, is skipped: a bad reply costs colours, not the
 * extension.
 */
export function decodeTokens(data: ArrayLike<number>, legend: readonly string[]): Token[] {
  const out: Token[] = [];
  let line = 0;
  let start = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    const dLine = data[i];
    line += dLine;
    start = dLine === 0 ? start + data[i + 1] : data[i + 1];
    const type = legend[data[i + 3]];
    if (type !== undefined) {
      out.push({ line, start, length: data[i + 2], type });
    }
  }
  return out;
}

function isKind(type: string): type is DiffKind {
  return (DIFF_KINDS as readonly string[]).includes(type);
}

/**
 * fillsLine reports whether the token is the whole content of its line: nothing but white space,
 * the string's quotes and a trailing comma around it.
 */
function fillsLine(text: string, t: Token): boolean {
  const before = text.slice(0, t.start);
  const after = text.slice(t.start + t.length);
  return /^\s*"?$/.test(before) && /^"?\s*,?\s*$/.test(after);
}

/** plan groups the diff tokens by kind; lineText returns the text of a 0-based line. */
export function plan(tokens: readonly Token[], lineText: (line: number) => string): Plan {
  const out = Object.fromEntries(DIFF_KINDS.map((k) => [k, { spans: [], wholeLines: [] }])) as unknown as Plan;
  const perLine = new Map<number, number>();
  for (const t of tokens) {
    perLine.set(t.line, (perLine.get(t.line) ?? 0) + 1);
  }
  for (const t of tokens) {
    if (!isKind(t.type) || t.length <= 0) {
      continue;
    }
    const entry = out[t.type];
    entry.spans.push({ line: t.line, start: t.start, end: t.start + t.length });
    if (perLine.get(t.line) === 1 && fillsLine(lineText(t.line), t)) {
      entry.wholeLines.push(t.line);
    }
  }
  return out;
}
