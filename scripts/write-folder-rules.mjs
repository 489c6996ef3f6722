// Writes web/gen/folder-rules.js: the folder rules of the format table (FolderRule in
// codec/core/format_table.h, each defined in its format's folder), as `logscope formats --json`
// prints them, for the page's folder code (web/src/folder-open.js), which groups a folder's files
// before any codec runs. One rule, defined once by the format, applied by both.
//   node scripts/write-folder-rules.mjs [path/to/logscope]      (scripts/build.sh runs it)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.argv[2] ? resolve(process.argv[2]) : join(root, 'build/native/logscope');
const out = join(root, 'web/gen/folder-rules.js');

const table = JSON.parse(execFileSync(cli, ['formats', '--json'], { encoding: 'utf8' }));
const rules = table.filter((entry) => entry.shape === 'folder' && entry.folder_rule)
  .map((entry) => ({ format: entry.name, ...entry.folder_rule }));
const text = '// Written by scripts/write-folder-rules.mjs from `logscope formats --json`: do not edit.\n' +
  `/** @type {import('../src/types.js').FolderRule[]} */\nexport default ${JSON.stringify(rules, null, 2)};\n`;
mkdirSync(dirname(out), { recursive: true });
// Unchanged: left as it is, so its time does not change what depends on it.
if (!existsSync(out) || readFileSync(out, 'utf8') !== text) writeFileSync(out, text);
console.error(`write-folder-rules: ${rules.length} folder rule${rules.length === 1 ? '' : 's'} in web/gen/folder-rules.js`);
