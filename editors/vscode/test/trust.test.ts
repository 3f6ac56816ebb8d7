// An untrusted workspace (VS Code's Restricted Mode) cannot steer what the server runs or reads:
// the settings that choose it are declared restricted, and the extension sends the user's values
// of them, never the workspace's.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RESTRICTED_SETTINGS, configurationNotification, initializationOptions, type ConfigReader } from '../src/server';

const pkgDir = path.resolve(__dirname, '..', '..');

/** layered is a configuration with user (global) and workspace values, the workspace's winning in get. */
function layered(user: Record<string, unknown>, workspace: Record<string, unknown>): ConfigReader {
  return {
    get: <T>(key: string) => (key in workspace ? workspace[key] : user[key]) as T | undefined,
    inspect: <T>(key: string) => ({ globalValue: user[key] as T | undefined }),
  };
}

const hostile = { sourceRoot: '../../..', reviews: ['**/**/**/x'], workingTree: false, author: 'ws' };

test('untrusted: the workspace values of the restricted settings are not sent', () => {
  const config = layered({ sourceRoot: 'repo' }, hostile);
  assert.deepEqual(initializationOptions(config, false), { author: 'ws', diagnostics: { disabled: [] }, sourceRoot: 'repo' });
  assert.deepEqual(configurationNotification(config, false).settings.lreview, {
    author: 'ws',
    diagnostics: { disabled: [] },
    sourceRoot: 'repo',
  });
});

test('trusted: the workspace values are sent', () => {
  assert.deepEqual(initializationOptions(layered({}, hostile), true), {
    author: 'ws',
    diagnostics: { disabled: [] },
    sourceRoot: '../../..',
    workingTree: false,
    reviews: ['**/**/**/x'],
  });
});

test('package.json: every setting that chooses what the server runs or reads is restricted', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const untrusted = pkg.capabilities.untrustedWorkspaces;
  assert.equal(untrusted.supported, 'limited');
  assert.deepEqual(
    [...untrusted.restrictedConfigurations].sort(),
    RESTRICTED_SETTINGS.map((k) => `lreview.${k}`).sort(),
  );
  for (const key of untrusted.restrictedConfigurations) {
    assert.ok(pkg.contributes.configuration.properties[key], `${key} is a contributed setting`);
  }
});
