// Bundles src/extension.ts and its dependencies (vscode-languageclient) into dist/extension.js,
// so that the packaged extension needs no node_modules. `--production` minifies and drops the
// source map.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
});
console.log(`build: dist/extension.js${production ? ' (production)' : ''}`);
