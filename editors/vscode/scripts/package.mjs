#!/usr/bin/env node
// Packages the extension as a .vsix.
//
//   node scripts/package.mjs [--out FILE]                        the universal package: no server
//   node scripts/package.mjs --target T --server BIN [--out FILE] a platform package carrying BIN
//   node scripts/package.mjs --dist DIR                             every platform package from
//                                                                    `make dist`'s DIR, into DIR
//
// T is one of vsce's targets (linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64,
// win32-arm64). BIN is copied to server/lreview-lsp (lreview-lsp.exe on Windows), where the
// extension looks before PATH, and the copy is removed afterwards. `make dist` runs it once per
// target with the binaries of internal/dist.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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

/** vsce's target for a GOOS and GOARCH. */
function targetOf(goos, goarch) {
  const os = { linux: 'linux', darwin: 'darwin', windows: 'win32' }[goos];
  const arch = { amd64: 'x64', arm64: 'arm64' }[goarch];
  return os && arch ? `${os}-${arch}` : undefined;
}

/**
 * packageDist packages the extension once per target with the binaries internal/dist listed in
 * DIR/artifacts.json, as DIR/lreview-<target>-<version>.vsix, and adds each to DIR/checksums.txt.
 */
function packageDist(dir) {
  const artifacts = JSON.parse(fs.readFileSync(path.join(dir, 'artifacts.json'), 'utf8'));
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  // A release (a tag, v0.2.0 → 0.2.0) must not carry its server in a package of another version;
  // other builds (0.0.0-g<commit>) keep package.json's, as the Marketplace takes no pre-release
  // versions.
  const release = JSON.parse(fs.readFileSync(path.join(dir, 'metadata.json'), 'utf8')).version;
  if (/^\d+\.\d+\.\d+$/.test(release) && release !== version) {
    die(`the release is ${release} (${dir}/metadata.json) but editors/vscode/package.json says ${version}: set its version to ${release}`);
  }
  const binaries = new Map();
  for (const a of artifacts) {
    const t = a.type === 'Binary' ? targetOf(a.goos, a.goarch) : undefined;
    // Paths are relative to the folder dist ran in, the one holding DIR.
    if (t !== undefined) binaries.set(t, path.resolve(path.dirname(path.resolve(dir)), a.path));
  }
  const sums = [];
  for (const t of TARGETS) {
    const server = binaries.get(t);
    if (server === undefined) die(`${dir}/artifacts.json lists no binary for ${t}`);
    const out = path.join(path.resolve(dir), `lreview-${t}-${version}.vsix`);
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--target', t, '--server', server, '--out', out], { stdio: 'inherit' });
    sums.push(`${createHash('sha256').update(fs.readFileSync(out)).digest('hex')}  ${path.basename(out)}\n`);
  }
  fs.appendFileSync(path.join(dir, 'checksums.txt'), sums.join(''));
}

const dist = flag('--dist');
if (dist !== undefined) {
  packageDist(dist);
  process.exit(0);
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
