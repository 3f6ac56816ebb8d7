#!/usr/bin/env node
// Packages the extension as a .vsix.
//
//   node scripts/package.mjs [--out FILE]                        the universal package: no server
//   node scripts/package.mjs --target T --server BIN [--out FILE] a platform package carrying BIN
//
// T is one of vsce's targets (linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64,
// win32-arm64). BIN is copied to server/lreview-lsp (lreview-lsp.exe on Windows), where the
// extension looks before PATH, and the copy is removed afterwards. `make dist` runs it once per
// target with GoReleaser's binaries.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

function flag(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

function die(message) {
  console.error(`package: ${message}`);
  process.exit(2);
}

const target = flag('--target');
const server = flag('--server');
const out = flag('--out');
if ((target === undefined) !== (server === undefined)) die('--target and --server go together');
if (target !== undefined && !TARGETS.includes(target)) die(`--target ${target}: want one of ${TARGETS.join(', ')}`);
if (server !== undefined && !fs.statSync(server, { throwIfNoEntry: false })?.isFile()) die(`--server ${server}: no such file`);

const serverDir = path.join(pkgDir, 'server');
const args = ['package', '--no-dependencies'];
if (out !== undefined) args.push('--out', path.resolve(out));
try {
  fs.rmSync(serverDir, { recursive: true, force: true });
  if (target !== undefined) {
    fs.mkdirSync(serverDir);
    const name = target.startsWith('win32-') ? 'lreview-lsp.exe' : 'lreview-lsp';
    fs.copyFileSync(server, path.join(serverDir, name));
    fs.chmodSync(path.join(serverDir, name), 0o755);
    args.push('--target', target);
  }
  const vsce = path.join(pkgDir, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, ...args], { cwd: pkgDir, stdio: 'inherit' });
} finally {
  fs.rmSync(serverDir, { recursive: true, force: true });
}
