// Starts a real VS Code (code-server, the web build of VS Code) for the end-to-end test: a private
// user-data, extensions and XDG config folder under one temporary root, the built .vsix installed,
// bound to a free port on 127.0.0.1 only. Nothing is written outside the root.

import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as path from 'node:path';

/** The paths of an installed code-server (see scripts/install-code-server). */
export function locate(prefix) {
  const entry = path.join(prefix, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const playwright = path.join(prefix, 'pw', 'node_modules', 'playwright-core');
  const ok = fs.existsSync(path.join(prefix, '.ok'));
  return { entry, playwright, ok: ok && fs.existsSync(entry) && fs.existsSync(playwright) };
}

/** freePort asks the kernel for an unused port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The folders of one run, all under root. */
export function layout(root) {
  const dirs = {
    root,
    xdg: path.join(root, 'xdg'),
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    workspace: path.join(root, 'workspace'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  dirs.settings = path.join(dirs.userData, 'User', 'settings.json');
  // The remote machine's settings: code-server is a remote window, where machine-overridable
  // settings (lreview.server.path) are read from here, not from the User settings.
  dirs.machineSettings = path.join(dirs.userData, 'Machine', 'settings.json');
  fs.mkdirSync(path.dirname(dirs.settings), { recursive: true });
  fs.mkdirSync(path.dirname(dirs.machineSettings), { recursive: true });
  return dirs;
}

/** The environment of code-server: dirs.env when the run sets one (a new user's), else ours. */
function env(dirs) {
  return { ...(dirs.env ?? process.env), XDG_CONFIG_HOME: dirs.xdg, XDG_DATA_HOME: path.join(dirs.root, 'xdg-data') };
}

function baseArgs(dirs) {
  return [
    '--auth', 'none',
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
  ];
}

/** installExtension runs `code-server --install-extension vsix` and returns its output. */
export function installExtension(cs, dirs, vsix) {
  return execFileSync(process.execPath, [cs.entry, ...baseArgs(dirs), '--install-extension', vsix], {
    env: env(dirs),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

/** writeSettings writes the user and the remote machine settings before code-server starts. */
export function writeSettings(dirs, user, machine) {
  fs.writeFileSync(dirs.settings, JSON.stringify(user, null, 2));
  fs.writeFileSync(dirs.machineSettings, JSON.stringify(machine, null, 2));
}

/**
 * start launches code-server on 127.0.0.1:port and resolves once /healthz answers. The log goes
 * to logFile. stop() ends it and its children (it runs in its own process group).
 */
export async function start(cs, dirs, port, logFile, timeoutMs = 60_000) {
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [cs.entry, ...baseArgs(dirs), '--bind-addr', `127.0.0.1:${port}`, dirs.workspace], {
    env: env(dirs),
    stdio: ['ignore', log, log],
    detached: true,
  });
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`code-server exited (${JSON.stringify(exited)}) before answering; see ${logFile}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer on ${url} within ${timeoutMs} ms; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (exited) return;
    const gone = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await gone;
    clearTimeout(timer);
    fs.closeSync(log);
  };
  return { url, child, stop };
}

/** launchBrowser starts headless Chromium (at chromiumPath) through cs's playwright-core, quiet: no network of its own, no first-run UI. */
export function launchBrowser(cs, chromiumPath) {
  const { chromium } = createRequire(import.meta.url)(cs.playwright);
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
