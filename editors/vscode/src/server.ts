// Start-up logic of the lreview extension that does not need the `vscode` module, so that it can
// be unit-tested under plain node: where the server binary is, how it is launched, and what it is
// told at initialization. extension.ts wires these pure functions to the editor.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// Type-only: erased at compile time, so this module never loads `vscode` at run time.
import type { Executable, LanguageClientOptions } from 'vscode-languageclient/node';

/** The name of the server binary, as installed by `go install`. */
export const SERVER_BINARY = 'lreview-lsp';

/**
 * The install command shown first when the server cannot be found, and the one "Copy install
 * command" copies: run in a clone of lreview-lsp (Go 1.26 or newer), it builds the server from
 * that checkout.
 */
export const INSTALL_COMMAND = 'go install ./cmd/lreview-lsp';

/** The go version the module needs (go.mod). */
export const GO_VERSION = '1.26';

/** The install command without a checkout, named second: it works once the module is published. */
export const INSTALL_PUBLISHED_COMMAND = 'go install github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest';

/** installHint is the sentence, starting with lead, that says how to install the server, checkout first. */
function installHint(lead: string): string {
  return (
    `${lead} from a clone of lreview-lsp with \`${INSTALL_COMMAND}\` (Go ${GO_VERSION} or newer), ` +
    `or, once the module is published, with \`${INSTALL_PUBLISHED_COMMAND}\``
  );
}

/** Language id, configuration section and LanguageClient id: one word everywhere. */
export const LANGUAGE_ID = 'lreview';
export const CONFIG_SECTION = 'lreview';

/** Diagnostic codes the server publishes (diagnostics.md); the enum of lreview.diagnostics.disabled. */
export const DIAGNOSTIC_CODES = [
  'syntax',
  'version-missing',
  'version-unknown',
  'version-not-first',
  'schema',
  'unknown-field',
  'html-escape',
  'patch-string-form',
  'patch-trailing-empty',
  'patch-multiline-element',
  'patch-empty',
  'patch-parse',
  'hunk-count-mismatch',
  'orphaned-anchor',
  'snippet-mismatch',
  'orphaned-resolves',
  'stale-anchor',
  'id-missing',
  'id-duplicate',
] as const;

/**
 * Codes this project adds to the spec's table: `renamed-path` (a comment
 * names the other side's name of a renamed file), `header-path` (a comment
 * names a plain diff's file as its ---/+++ line writes it),
 * `duplicate-member` (two members of one name in one object) and
 * `lone-surrogate` (half of a surrogate pair escaped alone), and the API
 * contract axis's `contract-breaking`, `contract-change`,
 * `contract-decision-stale` and `contract-unavailable`, and `verdict` (every
 * axis and the review's verdict). `check` prints them too.
 */
export const EXTENSION_CODES = [
  'renamed-path',
  'header-path',
  'duplicate-member',
  'lone-surrogate',
  'contract-breaking',
  'contract-change',
  'contract-decision-stale',
  'contract-unavailable',
  'verdict',
] as const;

/**
 * Codes only the language server publishes, for editors: `too-large` says a
 * file is over the server's message size limit; `dismissed` greys out a
 * dismissed comment (an Unnecessary-tagged hint); `source-changed` and
 * `worktree-differs` compare the review with the working tree, as does
 * `suggestion-applied` (the tree holds a comment's suggestion);
 * `review-comment` is a review's comment shown on a source file;
 * `branch-moved` says the branch has moved past the review (from git);
 * `dependency-change` is on a manifest's line that changes a dependency;
 * `check` prints none of them.
 */
export const EDITOR_ONLY_CODES = ['too-large', 'dismissed', 'source-changed', 'worktree-differs', 'review-comment', 'suggestion-applied', 'branch-moved', 'dependency-change'] as const;

/** The part of the configuration this module reads; vscode.WorkspaceConfiguration satisfies it. */
export interface ConfigReader {
  get<T>(section: string): T | undefined;
  /** Where a value comes from; read for the restricted settings in an untrusted workspace. */
  inspect?<T>(section: string): { defaultValue?: T; globalValue?: T } | undefined;
}

/**
 * The settings that choose what the server runs or reads: the binary, the source root, the review
 * globs, the working tree. A workspace's own settings are its author's words, so in an untrusted
 * workspace only the user's values count (package.json's restrictedConfigurations tells VS Code
 * so; serverSettings applies it to what it sends too). The server also keeps sourceRoot and the
 * globs inside the workspace whatever the client sends.
 */
export const RESTRICTED_SETTINGS = ['server.path', 'sourceRoot', 'reviews', 'workingTree'] as const;

/** reader is config as an untrusted workspace may be read: restricted settings from the user's values alone. */
function reader(config: ConfigReader, trusted: boolean): (key: string) => unknown {
  return (key) => {
    if (trusted || !(RESTRICTED_SETTINGS as readonly string[]).includes(key)) {
      return config.get<unknown>(key);
    }
    const where = config.inspect?.<unknown>(key);
    return where === undefined ? undefined : (where.globalValue ?? where.defaultValue);
  };
}

/** The server's settings: the shape of initializationOptions and of the "lreview" section. */
export interface ServerSettings {
  author: string;
  diagnostics: { disabled: string[] };
  /** The reviewed repository, when it is not the workspace folder; sent only when set. */
  sourceRoot?: string;
  /** false turns the working-tree features off; sent only then. */
  workingTree?: false;
  /** Globs of the review files in scope; sent only when set. */
  reviews?: string[];
  /** The comments shown on source files: severity, and whether outdated ones show; sent only when set. */
  comments?: { severity?: string; outdated?: boolean };
}

/** Where to look for the binary; the defaults are the real process environment. */
export interface ResolveEnv {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  homedir?: string;
  /** First workspace folder, for a relative lreview.server.path and ${workspaceFolder}. */
  workspaceFolder?: string;
  /** Injected for tests; defaults to an fs-based executable check. */
  isExecutable?: (file: string) => boolean;
  /**
   * The folder of the extension's own server (`<extension>/server`), which a platform package
   * carries; absent or empty in the universal package.
   */
  bundledDir?: string;
}

export type ResolveResult =
  | { ok: true; path: string; source: ServerSource }
  | { ok: false; message: string; reason: 'setting-not-found' | 'not-found' };

/** Where the binary was found, in the order they are tried. */
export type ServerSource = 'setting' | 'bundled' | 'PATH' | 'GOBIN' | 'GOPATH';

/** describeSource says where the server came from, for the output channel. */
export function describeSource(source: ServerSource): string {
  switch (source) {
    case 'setting':
      return 'from the setting lreview.server.path';
    case 'bundled':
      return 'bundled with the extension';
    case 'PATH':
      return 'found on PATH';
    case 'GOBIN':
      return 'found in $GOBIN';
    case 'GOPATH':
      return 'found in $GOPATH/bin';
  }
}

/**
 * serverSettings reads the settings the server understands. It never throws: a wrongly typed
 * user setting is ignored rather than breaking start-up. In an untrusted workspace (trusted
 * false) the restricted settings are the user's, never the workspace's.
 */
export function serverSettings(config: ConfigReader, trusted = true): ServerSettings {
  const get = reader(config, trusted);
  const author = config.get<unknown>('author');
  const disabled = config.get<unknown>('diagnostics.disabled');
  const codes = Array.isArray(disabled)
    ? [...new Set(disabled.filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim()))]
    : [];
  const sourceRoot = get('sourceRoot');
  const workingTree = get('workingTree');
  const reviews = get('reviews');
  const severity = config.get<unknown>('comments.severity');
  const outdated = config.get<unknown>('comments.outdated');
  const comments = {
    ...(typeof severity === 'string' && severity !== '' && severity !== 'information' ? { severity } : {}),
    ...(outdated === false ? { outdated: false } : {}),
  };
  return {
    author: typeof author === 'string' ? author.trim() : '',
    diagnostics: { disabled: codes },
    ...(typeof sourceRoot === 'string' && sourceRoot.trim() !== '' ? { sourceRoot: sourceRoot.trim() } : {}),
    ...(workingTree === false ? { workingTree: false as const } : {}),
    ...(Array.isArray(reviews) && reviews.some((g) => typeof g === 'string' && g !== '**/*.review.json')
      ? { reviews: reviews.filter((g): g is string => typeof g === 'string') }
      : {}),
    ...(Object.keys(comments).length > 0 ? { comments } : {}),
  };
}

/** initializationOptions sent with `initialize`: {author, diagnostics: {disabled}}. */
export function initializationOptions(config: ConfigReader, trusted = true): ServerSettings {
  return serverSettings(config, trusted);
}

/**
 * buildServerOptions launches `<binary> --stdio`. No transport is set on purpose: with
 * TransportKind.stdio vscode-languageclient would append a second `--stdio`.
 */
export function buildServerOptions(binary: string): Executable {
  return { command: binary, args: ['--stdio'] };
}

/**
 * buildClientOptions: documents of language lreview; initializationOptions is a function so that
 * a restart picks up the current settings. There is no synchronize.configurationSection on
 * purpose: the library's own settings listener would race a restart (a notification sent to a
 * client that is stopping is an error toast); extension.ts sends configurationNotification from
 * its one listener instead, queued with the restarts.
 */
export function buildClientOptions(getConfig: () => ConfigReader, trusted: () => boolean = () => true): LanguageClientOptions {
  return {
    documentSelector: [{ language: LANGUAGE_ID }],
    initializationOptions: () => initializationOptions(getConfig(), trusted()),
    diagnosticCollectionName: LANGUAGE_ID,
  };
}

/** The workspace/didChangeConfiguration params for a settings change: {settings: {lreview: ...}}. */
export function configurationNotification(config: ConfigReader, trusted = true): { settings: { lreview: ServerSettings } } {
  return { settings: { [CONFIG_SECTION]: serverSettings(config, trusted) } as { lreview: ServerSettings } };
}

/**
 * openSettingsCommand opens lreview.server.path where it applies. The setting is
 * machine-overridable: in a remote window (Remote-SSH, Codespaces, code-server) it is the remote
 * machine's, shown on the Remote tab; the User tab does not list it there.
 */
export function openSettingsCommand(remoteName: string | undefined): [string, unknown] {
  const query = `@id:${CONFIG_SECTION}.server.path`;
  if (remoteName) {
    return ['workbench.action.openRemoteSettings', { query }];
  }
  return ['workbench.action.openSettings', query];
}

/** notFoundMessage is what a user sees when no binary was found; it names the install command. */
export function notFoundMessage(searched: string[]): string {
  const where = searched.length > 0 ? ` (looked on PATH and in ${searched.join(', ')})` : ' on PATH';
  return (
    `lreview: the language server "${SERVER_BINARY}" was not found${where}. ` +
    `${installHint('Install it')}; or set "lreview.server.path" to the binary.`
  );
}

/** settingNotFoundMessage: the configured path does not name an executable file. */
export function settingNotFoundMessage(configured: string, resolved: string): string {
  const shown = configured === resolved ? `"${configured}"` : `"${configured}" (${resolved})`;
  return (
    `lreview: "lreview.server.path" is set to ${shown}, but no executable file is there. ` +
    `Fix the setting, or clear it to use "${SERVER_BINARY}" from PATH; ` +
    `${installHint('install the server')}.`
  );
}

function defaultIsExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    if (platform === 'win32') {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Candidate file names for a command: on Windows with each PATHEXT extension. */
function candidateNames(name: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform !== 'win32' || path.win32.extname(name) !== '') {
    return [name];
  }
  const exts = (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e !== '');
  return [...exts.map((e) => name + e.toLowerCase()), name];
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function findInDirs(
  dirs: string[],
  name: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  isExec: (f: string) => boolean,
): string | undefined {
  const p = pathApi(platform);
  for (const dir of dirs) {
    if (dir === '') {
      continue;
    }
    for (const candidate of candidateNames(name, platform, env)) {
      const file = p.join(dir, candidate);
      if (isExec(file)) {
        return file;
      }
    }
  }
  return undefined;
}

function envValue(env: NodeJS.ProcessEnv, key: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') {
    return env[key];
  }
  const found = Object.keys(env).find((k) => k.toUpperCase() === key.toUpperCase());
  return found === undefined ? undefined : env[found];
}

/** expandSetting resolves ~, ${workspaceFolder} and ${userHome} in lreview.server.path. */
export function expandSetting(value: string, opts: { homedir: string; workspaceFolder?: string; platform: NodeJS.Platform }): string {
  const p = pathApi(opts.platform);
  let v = value.trim();
  v = v.replace(/\$\{userHome\}/g, opts.homedir);
  if (opts.workspaceFolder !== undefined) {
    v = v.replace(/\$\{workspaceFolder\}/g, opts.workspaceFolder);
  }
  if (v === '~') {
    v = opts.homedir;
  } else if (v.startsWith('~/') || (opts.platform === 'win32' && v.startsWith('~\\'))) {
    v = p.join(opts.homedir, v.slice(2));
  }
  if (!p.isAbsolute(v) && (v.includes('/') || v.includes(p.sep)) && opts.workspaceFolder !== undefined) {
    v = p.resolve(opts.workspaceFolder, v);
  }
  return v;
}

/**
 * resolveServerPath finds the binary: the lreview.server.path setting when set (a bare name is
 * looked up on PATH), else the one the extension's platform package carries (bundledDir), else
 * `lreview-lsp` on PATH, else in $GOBIN and each $GOPATH/bin (default ~/go/bin) — where `go
 * install` puts it, and which editors started from a desktop launcher often lack on their PATH.
 */
export function resolveServerPath(setting: string | undefined, opts: ResolveEnv = {}): ResolveResult {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const homedir = opts.homedir ?? os.homedir();
  const isExec = opts.isExecutable ?? ((f: string) => defaultIsExecutable(f, platform));
  const p = pathApi(platform);
  const pathDirs = (envValue(env, 'PATH', platform) ?? '').split(p.delimiter);

  const configured = (setting ?? '').trim();
  if (configured !== '') {
    const expanded = expandSetting(configured, { homedir, workspaceFolder: opts.workspaceFolder, platform });
    const bare = !expanded.includes('/') && !expanded.includes(p.sep);
    if (bare) {
      const found = findInDirs(pathDirs, expanded, platform, env, isExec);
      if (found !== undefined) {
        return { ok: true, path: found, source: 'setting' };
      }
    } else {
      for (const candidate of candidateNames(expanded, platform, env)) {
        if (isExec(candidate)) {
          return { ok: true, path: candidate, source: 'setting' };
        }
      }
    }
    return { ok: false, reason: 'setting-not-found', message: settingNotFoundMessage(configured, expanded) };
  }

  if (opts.bundledDir) {
    const bundled = findInDirs([opts.bundledDir], SERVER_BINARY, platform, env, isExec);
    if (bundled !== undefined) {
      return { ok: true, path: bundled, source: 'bundled' };
    }
  }

  const onPath = findInDirs(pathDirs, SERVER_BINARY, platform, env, isExec);
  if (onPath !== undefined) {
    return { ok: true, path: onPath, source: 'PATH' };
  }

  const searched: string[] = [];
  const gobin = envValue(env, 'GOBIN', platform);
  if (gobin) {
    searched.push(gobin);
    const found = findInDirs([gobin], SERVER_BINARY, platform, env, isExec);
    if (found !== undefined) {
      return { ok: true, path: found, source: 'GOBIN' };
    }
  }
  const gopath = envValue(env, 'GOPATH', platform);
  const gopaths = gopath ? gopath.split(p.delimiter).filter((d) => d !== '') : [p.join(homedir, 'go')];
  const binDirs = gopaths.map((d) => p.join(d, 'bin'));
  searched.push(...binDirs);
  const found = findInDirs(binDirs, SERVER_BINARY, platform, env, isExec);
  if (found !== undefined) {
    return { ok: true, path: found, source: 'GOPATH' };
  }
  return { ok: false, reason: 'not-found', message: notFoundMessage(searched) };
}

/** The actions offered with the "not found" error. */
export const ACTION_COPY_INSTALL = 'Copy install command';
export const ACTION_OPEN_SETTINGS = 'Open settings';
