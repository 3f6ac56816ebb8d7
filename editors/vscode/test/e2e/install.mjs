#!/usr/bin/env node
// The VS Code package installed as a new user installs it: the linux-x64 .vsix that `make dist`
// built, which carries its server, installed with `code-server --install-extension` into a
// code-server whose PATH has neither Go nor lreview-lsp, with a HOME of its own (no ~/go/bin) and
// no lreview.server.path. A review opened there must show the server's work: the language mode,
// the diagnostics, the hover's diff, the preferred quick fix; the output channel must say that
// the bundled server runs, and its version. The screenshot with the quick fix menu open is the
// README's picture (docs/vscode-quick-fix.png, copied by hand from test-output/e2e-install/).
//
//   node test/e2e/install.mjs --vsix ../../dist/lreview-linux-x64-0.1.0.vsix [--keep]
//
// Needs code-server, Chromium and playwright-core from scripts/install-code-server. Exits 1 when
// a check fails, naming it; 2 when something it needs is missing.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as cs from './codeserver.mjs';
import { fail, goTo, runChecks, runCommand, shooter, until } from './ui.mjs';
import { checks } from './checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..', '..');
const outDir = path.join(pkgDir, 'test-output', 'e2e-install');
const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const vsix = argv.includes('--vsix') ? path.resolve(argv[argv.indexOf('--vsix') + 1]) : undefined;

function die(message, code = 2) {
  console.error(`install: ${message}`);
  process.exit(code);
}

/** The PATH of the new user: the system's directories, and neither Go nor lreview-lsp on it. */
const NEW_USER_PATH = '/usr/bin:/bin';

function newUserEnv(home) {
  for (const dir of NEW_USER_PATH.split(':')) {
    for (const name of ['go', 'lreview-lsp']) {
      if (fs.existsSync(path.join(dir, name))) die(`${dir}/${name} exists: the new user's PATH must have neither Go nor lreview-lsp`);
    }
  }
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(GO|LREVIEW_)/.test(k) && k !== 'PATH' && k !== 'HOME') env[k] = v;
  }
  return { ...env, PATH: NEW_USER_PATH, HOME: home };
}

function userSettings() {
  return {
    'workbench.colorTheme': 'Default Dark Modern',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.commandCenter.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'editor.minimap.enabled': false,
    'editor.hover.delay': 100,
  };
}

/** The lines the extension wrote to its output channel, from code-server's logs. */
function outputChannel(dirs) {
  const lines = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/lreview\.log$/.test(e.name)) lines.push(...fs.readFileSync(p, 'utf8').split('\n'));
    }
  };
  for (const d of [dirs.userData, path.join(dirs.root, 'xdg-data')]) if (fs.existsSync(d)) walk(d);
  return lines;
}

async function bundledServer({ dirs }) {
  const want = /lreview: server lreview-lsp (\S+), bundled with the extension: (\S+)/;
  let found;
  for (let i = 0; i < 100 && found === undefined; i++) {
    found = outputChannel(dirs).map((l) => l.match(want)).find((m) => m);
    if (found === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  if (found === undefined) fail(`the output channel does not say the bundled server runs; it says ${JSON.stringify(outputChannel(dirs))}`);
  const [, version, binary] = found;
  if (!binary.startsWith(dirs.extensions) || !binary.endsWith(path.join('server', 'lreview-lsp'))) {
    fail(`the server runs from ${binary}, want the extension's server/lreview-lsp under ${dirs.extensions}`);
  }
  if (version === '(no' || version === '') fail(`the output channel names no version: ${found[0]}`);
  console.log(`     ${found[0]}`);
}

/** The README's picture: the drift warning's quick fix menu over the coloured diff. */
async function picture({ page }) {
  await runCommand(page, 'View: Focus Active Editor Group');
  await goTo(page, 26, 18);
  await runCommand(page, 'Quick Fix...');
  await until(page, 'the quick fix menu offering to re-anchor c1', () => {
    const rows = [...document.querySelectorAll('.action-widget .monaco-list-row')].map((r) => r.textContent);
    return { ok: rows.some((r) => r.includes('Re-anchor c1')), value: rows };
  });
  await page.screenshot({ path: path.join(outDir, 'vscode-quick-fix.png') });
  await page.keyboard.press('Escape');
}

const byName = (name) => {
  const c = checks.find((c) => c.name === name);
  if (!c) die(`checks.mjs has no check ${name}`);
  return c;
};

const installChecks = [
  byName('open'),
  byName('language-mode'),
  { name: 'bundled-server', fatal: true, run: bundledServer },
  byName('problems-once'),
  byName('hover-diff-block'),
  { name: 'readme-picture', run: picture },
  byName('preferred-quick-fix'),
];

async function main() {
  const started = Date.now();
  if (!vsix || !fs.existsSync(vsix)) die(`--vsix names no file (${vsix}): run make dist first`);
  const found = cs.locate(process.env.LREVIEW_CODE_SERVER || '/opt/lreview-code-server');
  if (!found.ok) die('code-server is not installed: run sh scripts/install-code-server');
  const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) die(`no Chromium at ${chromium} (set CHROMIUM)`);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lreview-install-'));
  const dirs = cs.layout(root);
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  dirs.env = newUserEnv(home);
  let server;
  let browser;
  const failures = [];
  try {
    fs.writeFileSync(path.join(outDir, 'install.log'), cs.installExtension(found, dirs, vsix));
    fs.copyFileSync(path.join(here, 'fixtures', 'drifted.review.json'), path.join(dirs.workspace, 'drifted.review.json'));
    cs.writeSettings(dirs, userSettings(), {});
    server = await cs.start(found, dirs, await cs.freePort(), path.join(outDir, 'code-server.log'));
    browser = await cs.launchBrowser(found, chromium);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(20_000);
    const ctx = { page, url: `${server.url}/?folder=${encodeURIComponent(dirs.workspace)}`, shot: shooter(page, outDir), dirs, root };
    failures.push(...(await runChecks(ctx, installChecks)));
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (keep) console.log(`install: kept ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${installChecks.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) {
    console.log(`install: failed: ${failures.join(', ')} (${secs} s; screenshots in ${outDir})`);
    process.exit(1);
  }
  console.log(`install: the linux-x64 package works with no Go and no lreview-lsp on PATH (${secs} s; screenshots in ${outDir})`);
}

main().catch((err) => die(err.stack || String(err), 1));
