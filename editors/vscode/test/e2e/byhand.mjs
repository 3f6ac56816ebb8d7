// Writing a review by hand in VS Code: "lreview: Edit Body as Markdown" opens c1's body in a
// Markdown tab, unescaped (its ```suggestion block as it reads); a line typed there and the tab
// saved write the body back into the review as one JSON string, nothing else changed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fail, goTo, quickOpen, runCommand, until, waitFor } from './ui.mjs';

const REVIEW = 'handler.review.json';
const BODY_TAB = 'c1 body.md';

/** activeText is the text the active editor shows, line by line. */
async function activeText(page) {
  return page.evaluate(() => {
    const editor = [...document.querySelectorAll('.editor-group-container.active .monaco-editor')].find((e) => e.offsetParent !== null);
    return [...(editor?.querySelectorAll('.view-lines .view-line') ?? [])]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
      .map((l) => l.textContent.replace(/\u00a0/g, ' '));
  });
}

async function editBody({ page, shot, dirs }) {
  const file = path.join(dirs.workspace, 'reviews', REVIEW);
  const before = fs.readFileSync(file, 'utf8');
  const lines = before.split('\n');
  const at = lines.findIndex((l) => l.includes('"body": "Return the error'));
  if (at < 0) fail(`${REVIEW} has no body "Return the error…"`);
  const oldBody = JSON.parse(lines[at].trim().replace(/^"body": /, '').replace(/,$/, ''));
  await quickOpen(page, REVIEW);
  await goTo(page, at + 1, 12);
  await runCommand(page, 'lreview: Edit Body as Markdown');
  await waitFor(page, `the tab ${BODY_TAB}`, (n) => document.querySelector('.editor-group-container.active .tabs-container .tab.active')?.textContent.includes(n), BODY_TAB);
  await waitFor(page, 'the suggestion block in the Markdown tab', () =>
    [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line')].some((l) => l.textContent.includes('```suggestion')),
  );
  const shown = await activeText(page);
  await shot('body-tab');
  if (!shown.includes('```suggestion') || shown.some((l) => l.includes('\\n'))) fail(`the body tab shows ${JSON.stringify(shown)}, want the body unescaped`);
  await until(page, 'the Markdown language mode', () => {
    const text = document.querySelector('[id="status.editor.mode"]')?.textContent.trim() ?? '';
    return { ok: text === 'Markdown', value: text };
  });
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Typed "here".');
  await shot('body-typed');
  await page.keyboard.press('Control+S');
  // The server's applyEdit changes the review in its editor; saved as a person does, the file
  // holds the new body.
  const deadline = Date.now() + 20_000;
  let after = before;
  while (after === before) {
    if (Date.now() > deadline) fail(`${REVIEW} never held the typed line`);
    await quickOpen(page, REVIEW);
    await page.keyboard.press('Control+S');
    await new Promise((r) => setTimeout(r, 300));
    after = fs.readFileSync(file, 'utf8');
  }
  await shot('body-written');
  const afterLines = after.split('\n');
  const newBody = JSON.parse(afterLines[at].trim().replace(/^"body": /, '').replace(/,$/, ''));
  if (newBody !== `${oldBody}\nTyped "here".`) fail(`the body now reads ${JSON.stringify(newBody)}, want the old one and the typed line`);
  const comma = lines[at].endsWith(',') ? ',' : '';
  if (afterLines[at] !== `      "body": ${JSON.stringify(newBody)}${comma}`) fail(`the body line is ${afterLines[at]}, want one JSON string`);
  afterLines[at] = lines[at];
  if (afterLines.join('\n') !== before) fail('lines other than the body changed');
  // The body's group (its tab, the review opened there) closed: the checks after this one
  // work in one group, as a person left it.
  await runCommand(page, 'View: Close Editor Group');
  await waitFor(page, 'one editor group', () => document.querySelectorAll('.editor-group-container').length === 1);
}

export const byhandChecks = [{ name: 'byhand-edit-body', run: editBody }];
