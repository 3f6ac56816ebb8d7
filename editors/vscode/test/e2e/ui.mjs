// Driving the VS Code workbench through its DOM, the way a user does: the command palette, the
// explorer, the keyboard. Every wait is for a DOM condition with a timeout, never a sleep.

import * as path from 'node:path';

/** Thrown by a failed check; run.mjs prints the check's name and this message. */
export class CheckError extends Error {}

export function fail(message) {
  throw new CheckError(message);
}

/** waitFor polls fn in the page until it returns a truthy value; fails with what after timeout. */
export async function waitFor(page, what, fn, arg, timeout = 20_000) {
  try {
    const handle = await page.waitForFunction(fn, arg, { timeout, polling: 100 });
    return await handle.jsonValue();
  } catch (err) {
    if (String(err).includes('Timeout')) fail(`timed out after ${timeout} ms waiting for ${what}`);
    throw err;
  }
}

/**
 * runCommand runs a command palette entry by its exact label (or label prefix, with prefix set).
 * With opensInput set the command opens a quick input of its own (Go to Line), which stays.
 */
export async function runCommand(page, label, { prefix = false, opensInput = false } = {}) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}${prefix ? '' : '$'}`) }),
  });
  try {
    await row.first().waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    const offered = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allTextContents();
    await page.keyboard.press('Escape');
    fail(`the command palette has no entry "${label}"; for it, it offers ${JSON.stringify(offered.slice(0, 10))}`);
  }
  await row.first().click();
  if (!opensInput) await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** goTo moves the cursor to 1-based line and column through "Go to Line/Column...". */
/**
 * quickOpen opens a file of the workspace by its name through Quick Open (Ctrl+P), as a person
 * does, and waits until its tab is the active one with the cursor in its editor.
 */
export async function quickOpen(page, name) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(name);
  // The row whose file name is name: the list first shows the recently opened files.
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/[.]/g, '\\.')}$`) }),
  });
  // The first search of the workspace's files takes its time on a loaded machine.
  await row.first().waitFor({ state: 'visible', timeout: 30_000 });
  await row.first().click();
  // Under load the list may be drawn again under the click, which then opens nothing: Enter
  // opens the row the list has selected, as from the keyboard.
  const opened = await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
  if (!opened) await page.keyboard.press('Enter');
  await until(page, `the active editor tab ${name}`, (n) => {
    const active = document.querySelector('.editor-group-container.active .tabs-container .tab.active')
      ?? document.querySelector('.tabs-container .tab.active');
    const tab = active?.textContent ?? '';
    return { ok: tab.includes(n) && document.activeElement?.closest('.monaco-editor') !== null, value: tab };
  }, name);
}

export async function goTo(page, line, column) {
  await runCommand(page, 'Go to Line/Column...', { opensInput: true });
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await waitFor(page, 'the Go to Line input', () => {
    const el = document.querySelector('.quick-input-widget .quick-input-box input');
    return el && el.offsetParent !== null && !el.value.startsWith('>');
  });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await waitFor(
    page,
    `the cursor at ${line}:${column}`,
    (want) => {
      const item = document.querySelector('[id="status.editor.selection"]');
      return item && item.textContent.includes(want) ? item.textContent : false;
    },
    `Ln ${line}, Col ${column}`,
  );
}

/** visibleNotifications lists the notification toasts shown now, with their severity. */
export async function notifications(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.notifications-toasts .notification-toast')].map((t) => ({
      text: t.querySelector('.notification-list-item-message')?.textContent ?? t.textContent,
      error: t.querySelector('.codicon-error, .codicon-notifications-error, .codicon-error-small') !== null,
      warning: t.querySelector('.codicon-warning') !== null,
    })),
  );
}

/** shot saves a full-window screenshot named NN-name.png in dir. */
export function shooter(page, dir) {
  let n = 0;
  return async (name) => {
    n++;
    const file = `${dir}/${String(n).padStart(2, '0')}-${name}.png`;
    await page.screenshot({ path: file }).catch(() => undefined);
    return file;
  };
}

/**
 * until evaluates fn(arg) in the page until it returns {ok: true, value}; on timeout it fails
 * with what and the last value seen, so that a failure says what the user saw instead.
 */
export async function until(page, what, fn, arg, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await page.evaluate(fn, arg);
    if (last.ok) return last.value;
    if (Date.now() > deadline) fail(`timed out after ${timeout} ms waiting for ${what}; last seen: ${JSON.stringify(last.value)}`);
    await page.waitForTimeout(100); // the poll interval of a DOM condition, not a fixed wait
  }
}

/**
 * setUserSettings replaces the user settings through the editor, as a user does: "Preferences:
 * Open User Settings (JSON)", select all, insert, save, close. (code-server does not notice a
 * settings file written behind its back.) With remote set, the remote machine's settings
 * instead, where machine-overridable settings such as lreview.server.path apply in code-server.
 */
export async function setUserSettings(page, settings, { remote = false } = {}) {
  if (remote) await runCommand(page, 'Preferences: Open Remote Settings (JSON)', { prefix: true });
  else await runCommand(page, 'Preferences: Open User Settings (JSON)');
  await waitFor(page, 'the settings.json editor', () => {
    const tab = document.querySelector('.tabs-container .tab.active');
    return tab && tab.textContent.includes('settings.json') && document.activeElement?.closest('.monaco-editor') !== null;
  });
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify(settings, null, 2));
  await page.keyboard.press('Control+S');
  await waitFor(page, 'settings.json saved', () => {
    const tab = document.querySelector('.tabs-container .tab.active');
    return tab && tab.textContent.includes('settings.json') && !tab.classList.contains('dirty');
  });
  await runCommand(page, 'View: Close Editor');
}

/**
 * settled is until() plus quiet: the value must also stay the same for quietMs, so that a
 * second provider answering late (a duplicate outline or problem) is seen before the check.
 */
export async function settled(page, what, fn, arg, quietMs = 3000, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  let since = 0;
  let prev;
  for (;;) {
    const cur = await page.evaluate(fn, arg);
    const key = JSON.stringify(cur.value);
    if (!cur.ok || key !== prev) {
      since = Date.now();
      prev = key;
    } else if (Date.now() - since >= quietMs) {
      return cur.value;
    }
    if (Date.now() > deadline) fail(`timed out after ${timeout} ms waiting for ${what} to settle; last seen: ${key}`);
    await page.waitForTimeout(100); // the poll interval of a DOM condition, not a fixed wait
  }
}

/**
 * runChecks runs each check of list with ctx in turn, printing "ok" or "FAIL" with its time, and a
 * screenshot of each failure; a failed fatal check ends the run. It returns the failed checks' names.
 */
export async function runChecks(ctx, list) {
  const failures = [];
  for (const check of list) {
    const t0 = Date.now();
    try {
      await check.run(ctx);
      console.log(`ok   ${check.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      const message = err instanceof CheckError ? err.message : err.stack || String(err);
      failures.push(check.name);
      const shot = await ctx.shot(`FAIL-${check.name}`);
      console.log(`FAIL ${check.name}: ${message}\n     screenshot: ${path.relative(process.cwd(), shot)}`);
      if (check.fatal) break;
    }
  }
  return failures;
}
