#!/usr/bin/env node
// End-to-end test of the extension in a real VS Code: packages the .vsix, installs it into
// code-server (the web build of VS Code), opens a drifted review and checks through the DOM of
// headless Chromium what a user sees. Screenshots of every step go to test-output/e2e/.
//
//   LREVIEW_LSP=/path/to/lreview-lsp npm run test:e2e [-- --vsix file.vsix] [-- --keep]
//
// Needs code-server, Chromium and playwright-core from scripts/install-code-server
// (prefix /opt/lreview-code-server, or $LREVIEW_CODE_SERVER). Exits 1 when a check fails,
// naming it; 2 when something it needs is missing.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as cs from './codeserver.mjs';
import { runChecks, shooter } from './ui.mjs';
import { checks } from './checks.mjs';
import { worktreeChecks, writeRepository } from './worktree.mjs';
import { sourceChecks } from './sources.mjs';
import { byhandChecks } from './byhand.mjs';
import { contractChecks, writeContract } from './contract.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..', '..');
const outDir = path.join(pkgDir, 'test-output', 'e2e');
const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const vsixArg = argv.includes('--vsix') ? path.resolve(argv[argv.indexOf('--vsix') + 1]) : undefined;
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : undefined;

function die(message, code = 2) {
  console.error(`e2e: ${message}`);
  process.exit(code);
}

function preconditions() {
  const server = process.env.LREVIEW_LSP;
  if (!server) die('LREVIEW_LSP is not set: point it at a built lreview-lsp (make build puts it in bin/lreview-lsp)');
  const binary = path.resolve(server);
  try {
    fs.accessSync(binary, fs.constants.X_OK);
  } catch {
    die(`LREVIEW_LSP=${server}: no executable file at ${binary}`);
  }
  const prefix = process.env.LREVIEW_CODE_SERVER || '/opt/lreview-code-server';
  const found = cs.locate(prefix);
  if (!found.ok) die(`code-server is not installed under ${prefix}: run sh scripts/install-code-server`);
  const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) die(`no Chromium at ${chromium} (set CHROMIUM)`);
  return { binary, cs: found, chromium };
}

function packageVsix(root) {
  if (vsixArg) return vsixArg;
  const vsix = path.join(root, 'lreview.vsix');
  const vsce = path.join(pkgDir, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], {
    cwd: pkgDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return vsix;
}

/** The remote machine settings of the run: our server. */
function machineSettings(serverPath) {
  return { 'lreview.server.path': serverPath };
}

/** The user settings of the run: a quiet workbench in a known theme. */
function userSettings(theme = 'Default Dark Modern') {
  return {
    'workbench.colorTheme': theme,
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
    // Desktop VS Code's default: the web build's is afterDelay, which would save every edit the
    // extension makes behind the checks that nothing is saved until the person saves.
    'files.autoSave': 'off',
    'editor.hover.delay': 100,
    'lreview.author': 'e2e',
  };
}

/**
 * prepare installs the .vsix, fills the workspace and the settings, and returns the path of a
 * second, equally valid server binary: changing lreview.server.path to it restarts the server.
 */
function prepare(pre, root, dirs) {
  const vsix = packageVsix(root);
  fs.writeFileSync(path.join(outDir, 'install.log'), cs.installExtension(pre.cs, dirs, vsix));
  fs.copyFileSync(path.join(here, 'fixtures', 'drifted.review.json'), path.join(dirs.workspace, 'drifted.review.json'));
  writeRepository(dirs.workspace);
  writeContract(dirs.workspace, path.join(here, 'fixtures'));
  const second = path.join(root, 'bin2', 'lreview-lsp');
  fs.mkdirSync(path.dirname(second), { recursive: true });
  fs.copyFileSync(pre.binary, second);
  fs.chmodSync(second, 0o755);
  cs.writeSettings(dirs, userSettings(), machineSettings(pre.binary));
  return second;
}

async function main() {
  const started = Date.now();
  const pre = preconditions();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lreview-e2e-'));
  const dirs = cs.layout(root);
  let server;
  let browser;
  const failures = [];
  try {
    const second = prepare(pre, root, dirs);
    const port = await cs.freePort();
    server = await cs.start(pre.cs, dirs, port, path.join(outDir, 'code-server.log'));
    browser = await cs.launchBrowser(pre.cs, pre.chromium);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(20_000);
    const ctx = {
      page,
      url: `${server.url}/?folder=${encodeURIComponent(dirs.workspace)}`,
      shot: shooter(page, outDir),
      dirs,
      root,
      binary: pre.binary,
      second,
      userSettings,
      machineSettings,
      outDir,
      fixtures: path.join(here, 'fixtures'), // the contract checks' review and description
    };
    // The working tree's checks open other files and come back to the drifted review, before
    // the checks that restart or lose the server.
    const at = checks.findIndex((c) => c.name === 'server-path-change');
    const all = [
      ...checks.slice(0, at),
      ...sourceChecks,
      ...worktreeChecks,
      ...byhandChecks,
      ...contractChecks,
      ...checks.slice(at),
    ];
    failures.push(...(await runChecks(ctx, only ? all.filter((check) => only.includes(check.name)) : all)));
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (keep) console.log(`e2e: kept ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length > 0) {
    console.log(`e2e: ${failures.length} check(s) failed: ${failures.join(', ')} (${secs} s; screenshots in ${outDir})`);
    process.exit(1);
  }
  console.log(`e2e: all checks passed (${secs} s; screenshots in ${outDir})`);
}

main().catch((err) => die(err.stack || String(err), 1));
