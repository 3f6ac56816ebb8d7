// The review in the code: the workspace is the reviewed repository (worktree.mjs writes it), with
// reviews/handler.review.json on disk, not open, and drifted.review.json open (its c1 is on
// handler.go's line 71). Opening the Go file it reviews, Problems lists
// the review's comments under it, the comment thread widget shows c1 on its line (its words, from
// the thread the diagnostic carries), the Comments panel does not open by itself and its rows read
// the comments' words, a reply typed in the widget lands in the review's buffer without moving the
// view and reaches the disk only when the person saves, Alt+F8 moves to the next comment and opens
// its thread, and a click on a suggestion's Apply Suggestion button puts it in the source's buffer,
// the thread and the review then saying it is applied, nothing else changed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fail, goTo, quickOpen, runCommand, until } from './ui.mjs';

const SOURCE = 'handler.go';
const REVIEW = 'handler.review.json';
const C1 = 'c1: Return the error 🚀.';

/** tabDirty reports whether the editor tab of name shows unsaved changes. */
async function tabDirty(page, name) {
  return page.evaluate((n) => {
    const tab = [...document.querySelectorAll('.tabs-container .tab')].find((t) => t.textContent.includes(n));
    return tab?.classList.contains('dirty') ?? false;
  }, name);
}

/** shownLines is the active editor's lines in view, top to bottom, by their line numbers. */
async function shownLines(page) {
  return page.evaluate(() => {
    const editor = document.querySelector('.editor-instance .monaco-editor');
    const byTop = (sel) => [...(editor?.querySelectorAll(sel) ?? [])]
      .map((e) => ({ top: parseFloat(e.style.top || e.parentElement?.style.top || 'NaN'), text: e.textContent.replace(/\u00a0/g, ' ') }));
    const numbers = new Map(byTop('.margin-view-overlays > div').map((n) => [n.top, Number(n.text.trim())]));
    return byTop('.view-lines .view-line')
      .filter((l) => numbers.get(l.top) > 0)
      .sort((x, y) => x.top - y.top)
      .map((l) => ({ n: numbers.get(l.top), text: l.text }));
  });
}

async function openSource(page) {
  await quickOpen(page, SOURCE);
}

// openThread opens the comment thread holding text in the active editor. "Expand All Comments"
// is in the palette only once the editor has threads, which come after the extension asked the
// server, and a thread made later (the comments published again) comes collapsed: the command
// runs again until the thread is open. Gutter glyphs are drawn only for lines in view (an open
// thread's widget may hide them).
async function openThread(page, text) {
  const widget = page.locator('.review-widget', { hasText: text }).first();
  const deadline = Date.now() + 30_000;
  for (;;) {
    await until(page, 'a comment thread in the gutter or open', () => {
      const n = document.querySelectorAll('.comment-range-glyph.comment-thread, .comment-range-glyph.comment-thread-unresolved, .review-widget').length;
      return { ok: n > 0, value: n };
    }, undefined, 30_000);
    await runCommand(page, 'Comments: Expand All Comments');
    if (await widget.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false)) return widget;
    if (Date.now() > deadline) {
      const shown = await page.locator('.review-widget').allTextContents();
      fail(`no open comment thread holds "${text}"; the open ones: ${JSON.stringify(shown.map((t) => t.slice(0, 200)))}`);
    }
  }
}

async function problems({ page, shot }) {
  await openSource(page);
  await runCommand(page, 'Problems: Focus on Problems View');
  // The Comments panel may have taken the panel's front when the threads came.
  await page.locator('.panel .composite-bar .action-item', { hasText: /^PROBLEMS/i }).first().click().catch(() => undefined);
  const rows = await until(page, `Problems to list "${C1}" under ${SOURCE}`, (want) => {
    const rows = [...document.querySelectorAll('.markers-panel .monaco-list-row')].map((r) => r.getAttribute('aria-label') ?? r.textContent);
    const file = rows.findIndex((r) => r.includes('handler.go'));
    const mine = rows.findIndex((r) => r.includes(want));
    return { ok: file >= 0 && mine > file, value: rows };
  }, C1, 30_000);
  if (!rows.some((r) => r.includes('c2: The old call ignored errors. · on removed lines'))) {
    fail(`Problems lists no c2 on removed lines: ${JSON.stringify(rows)}`);
  }
  await shot('source-problems');
  await page.keyboard.press('Escape');
}

// panelTab is the panel's active tab ("PROBLEMS", "COMMENTS", …), "" when the panel is hidden.
async function panelTab(page) {
  return page.evaluate(() => {
    const panel = document.querySelector('.part.panel');
    if (!panel || panel.offsetParent === null) return '';
    return panel.querySelector('.composite-bar .action-item.checked')?.textContent?.trim().toUpperCase() ?? '';
  });
}

// altF8ToThread: Alt+F8 from the top of the file lands on line 72 and opens its threads, as a
// person gets there; again until the comments have come (the server's first publish).
async function altF8ToThread(page, text) {
  const widget = page.locator('.review-widget', { hasText: text }).first();
  const deadline = Date.now() + 40_000;
  for (;;) {
    await goTo(page, 1, 1);
    // The next comment, and the next: another review's comment may come first (line 71).
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Alt+F8');
      if (await widget.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false)) return widget;
    }
    if (Date.now() > deadline) fail(`Alt+F8 did not open the thread of "${text}"`);
  }
}

async function thread({ page, shot }) {
  await openSource(page);
  // The panel away, for the check that the Comments panel does not take it by itself.
  if (await page.locator('.part.panel').first().isVisible().catch(() => false)) {
    await runCommand(page, 'View: Toggle Panel Visibility');
  }
  await openSource(page);
  const widget = await altF8ToThread(page, 'Return the error');
  // The thread's first comment: its words and its name, no metadata sentence.
  const head = await widget.locator('.review-comment').first().textContent();
  if (/RIGHT \d|· active|\*\*/.test(head ?? '')) fail(`c1's thread shows metadata, not words: ${head}`);
  if (!(head ?? '').includes('c1')) fail(`c1's thread does not name c1 beside its author: ${head}`);
  // Its suggestion has a button of its own in the thread.
  await widget.locator('.head .action-label, .review-actions .action-label', { hasText: /^Apply Suggestion$/ }).first().waitFor({ state: 'visible', timeout: 10_000 })
    .catch(() => fail("c1's thread has no Apply Suggestion button"));
  await shot('source-thread');
  const tab = await panelTab(page);
  if (tab.startsWith('COMMENTS')) fail('the Comments panel opened by itself when a thread was shown');
}

// commentsPanel: the Comments panel lists each thread by the comment's words.
async function commentsPanel({ page, shot }) {
  await openSource(page);
  await runCommand(page, 'Comments: Focus on Comments View');
  const rows = await until(page, 'the Comments panel to list c1 by its words', () => {
    const rows = [...document.querySelectorAll('.comments-panel .monaco-list-row, .pane-body .comments-panel .monaco-tl-row')]
      .map((r) => (r.getAttribute('aria-label') ?? '') + ' | ' + r.textContent);
    return { ok: rows.some((r) => r.includes('Return the error')), value: rows };
  }, undefined, 30_000);
  const meta = rows.filter((r) => /RIGHT \d+|· active|c\d by /.test(r));
  if (meta.length > 0) fail(`Comments panel rows read metadata: ${JSON.stringify(meta)}`);
  await shot('source-comments-panel');
  await runCommand(page, 'View: Toggle Panel Visibility');
}

async function reply({ page, shot, dirs }) {
  const review = path.join(dirs.workspace, 'reviews', REVIEW);
  const onDisk = fs.readFileSync(review, 'utf8');
  const words = 'Done in the e2e run';
  await openSource(page);
  // The panel (Problems, Comments) away, for the editor's room.
  if (await page.locator('.part.panel').first().isVisible().catch(() => false)) {
    await runCommand(page, 'View: Toggle Panel Visibility');
  }
  await openSource(page);
  await goTo(page, 75, 1); // the thread widgets of line 72 in view
  const widget = await openThread(page, 'Return the error');
  const top = () => page.evaluate(() => {
    const nums = [...document.querySelectorAll('.editor-instance .margin-view-overlays .line-numbers')].map((e) => Number(e.textContent));
    return Math.min(...nums.filter((n) => n > 0));
  });
  const before = await top();
  // The collapsed reply box opens on a click, then takes the text, as a person does.
  await widget.locator('.review-thread-reply-button, .comment-form .monaco-button', { hasText: /^Reply$/ }).first().click();
  const box = widget.locator('.comment-form .monaco-editor, .comment-form textarea').first();
  await box.click();
  await page.keyboard.type(words);
  // The form's button of the extension's reply command (comments/commentThread/context).
  await widget.locator('.form-actions .monaco-button, .comment-form .monaco-button', { hasText: /^Reply$/ }).last().click();
  // The thread stays open and shows the reply among its comments (not in its reply box): the
  // server has it from the review's buffer.
  await until(page, `c1's thread widget to show the reply "${words}"`, (w) => {
    const text = [...document.querySelectorAll('.review-widget .body .review-comment')].map((e) => e.textContent).join('\n');
    return { ok: text.includes('Return the error') && text.includes(w), value: text.slice(0, 400) };
  }, words, 30_000);
  // The place replied at stays in view: the thread, its new reply, and the lines around it (the
  // threads were recreated, closed and reopened, before: the view jumped by their heights).
  const after = await top();
  const inView = await page.evaluate((w) => {
    const editor = document.querySelector('.editor-instance .monaco-scrollable-element')?.getBoundingClientRect();
    const reply = [...document.querySelectorAll('.review-widget .review-comment')].find((e) => e.textContent.includes(w))?.getBoundingClientRect();
    return editor !== undefined && reply !== undefined && reply.top >= editor.top && reply.bottom <= editor.bottom;
  }, words);
  if (!inView || after !== before) fail(`after the reply the view moved from line ${before} to ${after}, the reply ${inView ? 'in' : 'out of'} view`);
  await shot('source-reply');
  if ((await panelTab(page)).startsWith('COMMENTS')) fail('the Comments panel opened by itself on a reply');
  // The reply is in the review's buffer, not on disk: the person saves it, as any edit.
  if (fs.readFileSync(review, 'utf8') !== onDisk) fail(`the reply was written to ${REVIEW} on disk without the person saving`);
  await quickOpen(page, REVIEW);
  if (!(await tabDirty(page, REVIEW))) fail(`${REVIEW}'s tab does not show the reply as unsaved`);
  if (fs.readFileSync(review, 'utf8') !== onDisk) fail(`${REVIEW} changed on disk when opened, before Ctrl+S`);
  await page.keyboard.press('Control+S');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = fs.readFileSync(review, 'utf8');
    if (text.includes(`"body": "${words}"`)) break;
    if (Date.now() > deadline) fail(`after Ctrl+S, ${REVIEW} on disk has no reply "${words}":\n${text.slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await until(page, `${REVIEW}'s tab to be saved`, (n) => {
    const tab = [...document.querySelectorAll('.tabs-container .tab')].find((t) => t.textContent.includes(n));
    return { ok: tab !== undefined && !tab.classList.contains('dirty'), value: tab?.className };
  }, REVIEW);
  await runCommand(page, 'View: Close Editor');
  // The threads closed again, as the checks after this one expect the editor's lines in view.
  await openSource(page);
  await runCommand(page, 'Comments: Collapse All Comments');
}

async function nextComment({ page, shot }) {
  await openSource(page);
  // Every comment in scope is on line 72 of handler.go by now: handler.review.json's c1 and
  // c2, and drifted.review.json's c1, which preferred-quick-fix re-anchored from RIGHT 71 to
  // RIGHT 72 in its unsaved buffer (the source comments follow the review's buffer).
  const at = async (line, col) => {
    await runCommand(page, 'Go to Line/Column...', { opensInput: true });
    await page.locator('.quick-input-widget .quick-input-box input').fill(`:${line}:${col}`);
    await page.keyboard.press('Enter');
    await until(page, `the cursor on line ${line}`, (l) => {
      const s = document.querySelector('[id="status.editor.selection"]')?.textContent ?? '';
      return { ok: s.includes(`Ln ${l},`), value: s };
    }, line);
  };
  // The comments' first lines: 72 (c1 of both reviews, c2 on the removed lines before it) and
  // 73 where a comment on the removed lines sits on the line after them.
  const moves = async (key, lines) => {
    await page.keyboard.press(key);
    return until(page, `${key} to move to line ${lines.join(' or ')}`, (ls) => {
      const s = document.querySelector('[id="status.editor.selection"]')?.textContent ?? '';
      const m = /Ln (\d+),/.exec(s);
      return { ok: m !== null && ls.includes(Number(m[1])), value: s };
    }, lines);
  };
  const open = () => page.evaluate(() => [...document.querySelectorAll('.review-widget')]
    .filter((w) => w.offsetParent !== null && w.querySelector('.review-comment')).map((w) => w.textContent.slice(0, 80)));
  await at(1, 1);
  const shown = await open();
  if (shown.length > 0) fail(`threads open before Alt+F8: ${JSON.stringify(shown)}`);
  await moves('Alt+F8', [72]); // the next comment, below: the first
  // It lands on an open thread, its words in view, as F8 opens a problem.
  await page.locator('.review-widget .review-comment', { hasText: 'Return the error' }).first().waitFor({ state: 'visible', timeout: 10_000 })
    .catch(async () => fail(`Alt+F8 landed on line 72 with c1's thread closed; open: ${JSON.stringify(await open())}`));
  await runCommand(page, 'Comments: Collapse All Comments');
  await at(75, 1);
  await moves('Shift+Alt+F8', [72, 73]); // the previous one, above: the last
  await at(72, 5);
  await moves('Alt+F8', [72, 73]); // the one after line 72, else around to the first
  // The thread landed on is open.
  await until(page, 'the thread Alt+F8 landed on to be open', () => {
    const open = [...document.querySelectorAll('.review-widget')].filter((w) => w.offsetParent !== null && w.querySelector('.review-comment'));
    return { ok: open.length > 0, value: open.length };
  });
  await shot('source-next-comment');
  await runCommand(page, 'Comments: Collapse All Comments');
}

// The lines of handler.go around c1 (RIGHT 72–73) before and after its suggestion.
const BEFORE = ['    defer cancel(ctx)', '    result, err := calculate(input)', '    _ = err // 🚀 later', '    return result, nil'];
const AFTER = ['    defer cancel(ctx)', '    result, err := calculate(input)', '    if err != nil {', '        return Output{}, err', '    }', '    return result, nil'];

/** showsFrom71 waits for the active editor to show want as its lines from line 71 on. */
async function showsFrom71(page, want, what) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const shown = await shownLines(page);
    const from = shown.findIndex((l) => l.n === 71);
    const got = from < 0 ? [] : shown.slice(from, from + want.length);
    if (got.length === want.length && got.every((l, i) => l.n === 71 + i && l.text === want[i])) return;
    if (Date.now() > deadline) fail(`${what}: ${SOURCE} shows ${JSON.stringify(shown.map((l) => `${l.n}: ${l.text}`))}, want from line 71 ${JSON.stringify(want)}`);
    await page.waitForTimeout(100); // the poll interval of a DOM condition, not a fixed wait
  }
}

/** waitForFile waits for path to hold want (after a save), failing with what. */
async function waitForFile(file, want, what) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = fs.readFileSync(file, 'utf8');
    if (text === want) return;
    if (Date.now() > deadline) fail(`${what}: ${path.basename(file)} on disk is not as it should be:\n${text.split('\n').slice(68).join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** applyButton is the Apply Suggestion action in the title of a thread widget. */
function applyButton(widget) {
  return widget.locator('.head .action-label', { hasText: /^Apply Suggestion$/ });
}

// applySuggestion: a click on the Apply Suggestion button of c1's thread, as a person clicks it,
// puts the suggestion in the source's buffer in place of c1's lines, nothing else changed and
// nothing saved; the thread then says it is applied (no button), and so does the review, whose
// text and file stay as they were. Undo gives the lines back, and the button.
async function applySuggestion({ page, shot, dirs }) {
  const source = path.join(dirs.workspace, 'internal', 'api', SOURCE);
  const review = path.join(dirs.workspace, 'reviews', REVIEW);
  const sourceBefore = fs.readFileSync(source, 'utf8');
  const reviewBefore = fs.readFileSync(review, 'utf8');
  const sourceAfter = sourceBefore.replace('    _ = err // 🚀 later\n', '    if err != nil {\n        return Output{}, err\n    }\n');
  if (sourceAfter === sourceBefore) fail(`${SOURCE} does not hold c1's lines before the check`);
  await openSource(page);
  if (await page.locator('.part.panel').first().isVisible().catch(() => false)) {
    await runCommand(page, 'View: Toggle Panel Visibility');
  }
  await openSource(page);
  const widget = await altF8ToThread(page, 'Return the error');
  // The thread's title may be below the view (other threads of line 72 come first): the editor is
  // scrolled with the mouse wheel until the button is in view, then it is clicked.
  const button = applyButton(widget).first();
  await button.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => fail("c1's thread has no Apply Suggestion button"));
  await wheelIntoView(page, button, 'Apply Suggestion');
  await button.click();
  // The thread says it is applied, in its title, and offers no Apply Suggestion any more.
  await until(page, "c1's thread to say its suggestion is applied", () => {
    const w = [...document.querySelectorAll('.review-widget')].find((e) => e.textContent.includes('Return the error'));
    const title = w?.querySelector('.head')?.textContent ?? '';
    const buttons = [...(w?.querySelectorAll('.head .action-label') ?? [])].map((b) => b.textContent);
    return { ok: title.includes('c1 · suggestion applied') && !buttons.includes('Apply Suggestion'), value: { title, buttons } };
  });
  await shot('source-apply-suggestion');
  if ((await panelTab(page)).startsWith('COMMENTS')) fail('the Comments panel opened by itself on Apply Suggestion');
  if (fs.readFileSync(source, 'utf8') !== sourceBefore) fail(`Apply Suggestion saved ${SOURCE} without the person saving`);
  if (!(await tabDirty(page, SOURCE))) fail(`${SOURCE}'s tab does not show the suggestion as unsaved`);
  // The threads closed, the lines read: the suggestion in place of c1's, the lines around as they were.
  await collapseThreads(page);
  await showsFrom71(page, AFTER, 'after Apply Suggestion');
  if (await tabDirty(page, REVIEW)) fail(`Apply Suggestion changed ${REVIEW}'s buffer`);
  if (fs.readFileSync(review, 'utf8') !== reviewBefore) fail(`Apply Suggestion changed ${REVIEW} on disk`);
  // Saved by the person: the file is the suggestion in place of c1's lines, byte for byte.
  await page.keyboard.press('Control+S');
  await waitForFile(source, sourceAfter, 'after Ctrl+S');
  // The review says it too (suggestion-applied on c1: it reads the saved file), its text unchanged.
  await quickOpen(page, REVIEW);
  await runCommand(page, 'Problems: Focus on Problems View');
  const applied = "c1's suggestion is applied: internal/api/handler.go:72–75 holds it";
  await until(page, `Problems to show "${applied}" for ${REVIEW}`, (want) => {
    const rows = [...document.querySelectorAll('.markers-panel .monaco-list-row')].map((r) => r.getAttribute('aria-label') ?? r.textContent);
    return { ok: rows.some((r) => r.includes(want)), value: rows };
  }, applied, 30_000);
  await shot('source-apply-suggestion-review');
  if (await tabDirty(page, REVIEW)) fail(`Apply Suggestion changed ${REVIEW}'s buffer`);
  if (fs.readFileSync(review, 'utf8') !== reviewBefore) fail(`Apply Suggestion changed ${REVIEW} on disk`);
  await runCommand(page, 'View: Toggle Panel Visibility');
  await runCommand(page, 'View: Close Editor');
  await openSource(page);
  // Undone and saved: the file as it was, and the thread's button back.
  await page.keyboard.press('Control+Z');
  await collapseThreads(page);
  await showsFrom71(page, BEFORE, 'after Undo');
  await page.keyboard.press('Control+S');
  await waitForFile(source, sourceBefore, 'after Undo and Ctrl+S');
  const again = await altF8ToThread(page, 'Return the error');
  await applyButton(again).first().waitFor({ state: 'visible', timeout: 20_000 })
    .catch(() => fail("after Undo, c1's thread has no Apply Suggestion button again"));
  if (fs.readFileSync(review, 'utf8') !== reviewBefore) fail(`${REVIEW} changed on disk`);
  await collapseThreads(page);
}

// wheelIntoView scrolls the active editor with the mouse wheel, as a person does, until target (in a
// thread widget, below the line in view) is inside its view: Monaco draws its own scrolling, which
// the browser's scrollIntoView cannot move, and parks what it does not draw far above the view.
async function wheelIntoView(page, target, what) {
  const editor = page.locator('.editor-instance .monaco-scrollable-element').first();
  for (let i = 0; ; i++) {
    const ed = await editor.boundingBox();
    const box = await target.boundingBox();
    if (ed === null || box === null) fail(`${what}: no box on screen`);
    if (box.y >= ed.y && box.y + box.height <= ed.y + ed.height) return;
    if (i > 30) fail(`${what} stays out of the editor's view (at ${box.y}, the view ${ed.y}–${ed.y + ed.height})`);
    await page.mouse.move(ed.x + ed.width / 2, ed.y + ed.height / 2);
    const parked = box.y < -100_000;
    await page.mouse.wheel(0, box.y < ed.y && !parked ? -200 : 200);
    // The scroll lands when the target has moved.
    await target.evaluate((el, y) => new Promise((resolve) => {
      const start = performance.now();
      const poll = () => (el.getBoundingClientRect().y !== y || performance.now() - start > 2000 ? resolve() : requestAnimationFrame(poll));
      poll();
    }), box.y);
  }
}

// collapseThreads closes the open thread widgets of the active editor by their Collapse buttons,
// as a person does, then focuses the editor. (The palette's "Collapse All Comments" is offered
// only once the workspace's comments were listed: the Comments panel.)
async function collapseThreads(page) {
  const collapse = page.locator('.review-widget .head .expand-review-action');
  for (let i = 0; ; i++) {
    const buttons = await collapse.filter({ visible: true }).all();
    if (buttons.length === 0) break;
    if (i > 10) fail(`the threads do not close: ${buttons.length} Collapse buttons left`);
    await wheelIntoView(page, buttons[0], "a thread's Collapse button");
    await buttons[0].click({ timeout: 5_000 }).catch(() => undefined); // it may have gone with the one before
  }
  await openSource(page);
}

export const sourceChecks = [
  { name: 'source-problems', run: problems },
  { name: 'source-thread', run: thread },
  { name: 'source-comments-panel', run: commentsPanel },
  { name: 'source-reply', run: reply },
  { name: 'source-next-comment', run: nextComment },
  { name: 'source-apply-suggestion', run: applySuggestion },
];
