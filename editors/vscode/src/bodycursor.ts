// Where the cursor goes after a quick fix that writes a new comment or reply: inside its empty
// "body" string, so that the user types the comment at once. Pure (no `vscode`): it works on the
// LSP shape of the edits, which all refer to the document before the edit.

export interface Pos {
  line: number;
  character: number;
}

export interface Edit {
  range: { start: Pos; end: Pos };
  newText: string;
}

/** The empty body a new comment or reply is written with. */
export const EMPTY_BODY = /"body"\s*:\s*""/;

function before(a: Pos, b: Pos): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/** end returns where text ends when inserted at start. */
function endOf(start: Pos, text: string): Pos {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length === 1) {
    return { line: start.line, character: start.character + text.length };
  }
  return { line: start.line + lines.length - 1, character: lines[lines.length - 1].length };
}

/**
 * bodyCursor returns the position, in the document after the edits, between the quotes of the
 * first empty "body" one of the edits inserts; undefined when no edit inserts one.
 */
export function bodyCursor(edits: readonly Edit[]): Pos | undefined {
  const target = edits.find((e) => EMPTY_BODY.test(e.newText));
  if (target === undefined) {
    return undefined;
  }
  const m = EMPTY_BODY.exec(target.newText)!;
  const inText = m.index + m[0].length - 1; // between the two quotes
  // Where the target's text starts after the edits that precede it have been applied.
  // Fields are read one by one: vscode.Position keeps them behind getters, which a spread drops.
  const start = { line: target.range.start.line, character: target.range.start.character };
  const preceding = edits
    .filter((e) => e !== target && before(e.range.end, target.range.start))
    .sort((a, b) => (before(a.range.start, b.range.start) ? -1 : 1));
  let lineShift = 0;
  let charShift = 0;
  for (const e of preceding) {
    const newEnd = endOf(e.range.start, e.newText);
    const removedLines = e.range.end.line - e.range.start.line;
    lineShift += newEnd.line - e.range.start.line - removedLines;
    if (e.range.end.line === target.range.start.line) {
      // The edit ends on the target's line: the rest of that line moves with the edit's end.
      charShift = newEnd.character - e.range.end.character;
    }
  }
  return endOf({ line: start.line + lineShift, character: start.character + charShift }, target.newText.slice(0, inText));
}
