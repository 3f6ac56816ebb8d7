// `vsce package` builds a .vsix (a zip) that holds what the extension needs at run time and
// nothing else: the bundle, the grammar, the schema copy, the manifest and the README.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

const pkgDir = path.resolve(__dirname, '..', '..');

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/** zipEntries lists a zip's central directory (enough of the format for a .vsix). */
function zipEntries(buf: Buffer): ZipEntry[] {
  const eocdSig = 0x06054b50;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === eocdSig) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, 'the .vsix is a zip (end of central directory found)');
  const count = buf.readUInt16LE(eocd + 10);
  let off = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(off), 0x02014b50, 'central directory entry signature');
    const method = buf.readUInt16LE(off + 10);
    const compressedSize = buf.readUInt32LE(off + 20);
    const nameLen = buf.readUInt16LE(off + 28);
    const extraLen = buf.readUInt16LE(off + 30);
    const commentLen = buf.readUInt16LE(off + 32);
    const localHeaderOffset = buf.readUInt32LE(off + 42);
    const name = buf.toString('utf8', off + 46, off + 46 + nameLen);
    entries.push({ name, method, compressedSize, localHeaderOffset });
    off += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function zipRead(buf: Buffer, e: ZipEntry): Buffer {
  const lh = e.localHeaderOffset;
  assert.equal(buf.readUInt32LE(lh), 0x04034b50, 'local header signature');
  const start = lh + 30 + buf.readUInt16LE(lh + 26) + buf.readUInt16LE(lh + 28);
  const data = buf.subarray(start, start + e.compressedSize);
  if (e.method === 0) return Buffer.from(data);
  assert.equal(e.method, 8, `${e.name}: deflate or stored`);
  return zlib.inflateRawSync(data);
}

test('vsce package builds a .vsix with the run-time files only', { timeout: 180_000 }, (t) => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lreview-vsix-'));
  const vsix = path.join(outDir, 'lreview.vsix');
  const vsce = path.join(pkgDir, 'node_modules', '@vscode', 'vsce', 'vsce');
  t.after(() => fs.rmSync(outDir, { recursive: true, force: true }));
  try {
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], {
      cwd: pkgDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    assert.fail(`vsce package failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
  const buf = fs.readFileSync(vsix);
  const entries = zipEntries(buf);
  const names = entries.map((e) => e.name);
  const lower = names.map((n) => n.toLowerCase());

  for (const want of [
    'extension/package.json',
    'extension/dist/extension.js',
    'extension/syntaxes/lreview.tmLanguage.json',
    'extension/language-configuration.json',
    'extension/readme.md',
    'extension/license.txt',
    'extension.vsixmanifest',
  ]) {
    assert.ok(lower.includes(want.toLowerCase()), `.vsix lacks ${want}; has ${names.join(', ')}`);
  }
  for (const n of names) {
    assert.ok(!n.includes('node_modules/'), `.vsix holds ${n}, want no node_modules`);
    assert.ok(!n.startsWith('extension/src/'), `.vsix holds ${n}, want no sources`);
    assert.ok(!n.startsWith('extension/test/') && !n.startsWith('extension/out/'), `.vsix holds ${n}, want no tests`);
    assert.ok(!n.endsWith('.ts') && !n.endsWith('.map'), `.vsix holds ${n}, want no TypeScript or source maps`);
  }

  // No schema copy: the server validates (the JSON language features no longer serve lreview).
  assert.ok(!names.some((n) => n.includes('schema/')), `.vsix holds a schema: ${names.join(', ')}`);

  // The bundle stands alone: it requires nothing but vscode and node built-ins.
  const bundleEntry = entries.find((e) => e.name === 'extension/dist/extension.js');
  assert.ok(bundleEntry);
  const bundle = zipRead(buf, bundleEntry).toString('utf8');
  const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
  const builtins = new Set(require('node:module').builtinModules as string[]);
  for (const r of required) {
    assert.ok(r === 'vscode' || builtins.has(r.replace(/^node:/, '')), `bundle requires ${r}, which is not packaged`);
  }
  assert.ok(bundle.includes('go install ./cmd/lreview-lsp'), 'bundle carries the install hint');
  // Minified by vscode:prepublish: no line of the bundle is indented source.
  assert.ok(bundle.split('\n').length < 50, `bundle has ${bundle.split('\n').length} lines, want a minified bundle`);

  const manifest = JSON.parse(zipRead(buf, entries.find((e) => e.name === 'extension/package.json')!).toString('utf8'));
  assert.equal(manifest.main, './dist/extension.js');
  assert.equal(manifest.license, 'MIT');
  // The universal package carries no server.
  assert.ok(!names.some((n) => n.startsWith('extension/server/')), `the universal .vsix holds a server: ${names.join(', ')}`);
  const license = entries.find((e) => e.name.toLowerCase() === 'extension/license.txt')!;
  assert.equal(zipRead(buf, license).toString('utf8'), fs.readFileSync(path.join(pkgDir, '..', '..', 'LICENSE'), 'utf8'), 'the packaged LICENSE is the repository\'s');
});

test('the extension\'s LICENSE is the repository\'s (MIT)', () => {
  const repo = fs.readFileSync(path.join(pkgDir, '..', '..', 'LICENSE'), 'utf8');
  assert.equal(fs.readFileSync(path.join(pkgDir, 'LICENSE'), 'utf8'), repo);
  assert.match(repo, /^MIT License/);
});

test('a platform package carries its server', { timeout: 180_000 }, (t) => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lreview-vsix-'));
  t.after(() => fs.rmSync(outDir, { recursive: true, force: true }));
  const fake = path.join(outDir, 'lreview-lsp.exe');
  fs.writeFileSync(fake, 'MZ not really a server');
  const vsix = path.join(outDir, 'lreview-win32-arm64.vsix');
  try {
    execFileSync(process.execPath, [path.join(pkgDir, 'scripts', 'package.mjs'), '--target', 'win32-arm64', '--server', fake, '--out', vsix], {
      cwd: pkgDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    assert.fail(`package.mjs failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
  const buf = fs.readFileSync(vsix);
  const entries = zipEntries(buf);
  const server = entries.find((e) => e.name === 'extension/server/lreview-lsp.exe');
  assert.ok(server, `the win32-arm64 .vsix lacks extension/server/lreview-lsp.exe: ${entries.map((e) => e.name).join(', ')}`);
  assert.equal(zipRead(buf, server).toString('utf8'), 'MZ not really a server');
  const manifest = zipRead(buf, entries.find((e) => e.name === 'extension.vsixmanifest')!).toString('utf8');
  assert.match(manifest, /TargetPlatform="win32-arm64"/);
  assert.ok(!fs.existsSync(path.join(pkgDir, 'server')), 'package.mjs left server/ behind');
});

test('a release\'s packages take the release\'s version, or none is made', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lreview-dist-'));
  try {
    fs.writeFileSync(path.join(dir, 'artifacts.json'), '[]');
    fs.writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ project_name: 'lreview-lsp', version: '99.0.0' }));
    let out = '';
    let code = 0;
    try {
      execFileSync(process.execPath, [path.join(pkgDir, 'scripts', 'package.mjs'), '--dist', dir], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const e = err as { status: number; stderr: string };
      code = e.status;
      out = e.stderr;
    }
    assert.equal(code, 2, 'packaging a 99.0.0 release with package.json at another version must fail');
    assert.match(out, /the release is 99\.0\.0 .* set its version to 99\.0\.0/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
