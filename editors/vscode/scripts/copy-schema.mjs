// Copies the one source of truth, ../../schema/review-exchange.v1.schema.json (repository root),
// into this package as schema/review-exchange.v1.schema.json, where package.json's jsonValidation
// points. The copy is gitignored; run before building or packaging.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const source = path.resolve(pkg, '../../schema/review-exchange.v1.schema.json');
const target = path.join(pkg, 'schema', 'review-exchange.v1.schema.json');

if (!fs.existsSync(source)) {
  console.error(
    `copy-schema: ${path.relative(process.cwd(), source) || source} is missing.\n` +
      'The VS Code extension ships the review-exchange JSON schema from the repository root ' +
      '(schema/review-exchange.v1.schema.json); build from a full checkout of lreview-lsp.',
  );
  process.exit(1);
}
const text = fs.readFileSync(source, 'utf8');
try {
  JSON.parse(text);
} catch (err) {
  console.error(`copy-schema: ${source} is not valid JSON: ${err.message}`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, text);
console.log(`copy-schema: ${path.relative(pkg, source)} -> ${path.relative(pkg, target)}`);
