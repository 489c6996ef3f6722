// A format is one folder: outside `codec/<format>/`, the format table's list (codec/formats.cpp),
// `web/src/data-views/<format>.js` and a format's own CLI commands (`cli/<format>_commands.cpp`,
// `cli/<format>_*_commands.cpp`),
// no code names a format. Comments and prose (a string with a space: help text, messages) may.
// The formats are the folders with an `entry.cpp`, so every later format is held to it too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const formatNames = () => readdirSync(join(root, 'codec')).filter((d) => existsSync(join(root, 'codec', d, 'entry.cpp')));

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(cpp|h|mjs|js)$/.test(name)) out.push(path);
  }
  return out;
}

// The files held to the rule, and the ones a format may name itself in.
function checkedFiles(names) {
  const files = [
    ...walk(join(root, 'codec', 'core')),
    ...readdirSync(join(root, 'codec')).filter((f) => /\.(cpp|h)$/.test(f)).map((f) => join(root, 'codec', f)),
    ...walk(join(root, 'cli')),
    ...walk(join(root, 'wasm')),
    ...walk(join(root, 'web', 'src')),
    ...readdirSync(join(root, 'web')).filter((f) => /\.(js|mjs)$/.test(f)).map((f) => join(root, 'web', f)),
  ];
  const allowed = new Set([
    join(root, 'codec', 'formats.cpp'),
    ...names.map((n) => join(root, 'cli', `${n}_commands.cpp`)),
    ...names.map((n) => join(root, 'web', 'src', 'data-views', `${n}.js`)),
  ]);
  const ownCommands = new RegExp(`^(${names.join('|')})_[a-z0-9_]+_commands\\.cpp$`);
  return files.filter((f) => !allowed.has(f) && !(f.startsWith(join(root, 'cli') + '/') && ownCommands.test(basename(f))));
}

// Splits source text into code (comments removed, strings blanked) and string literals, each with
// its line. Good enough for C++ and JavaScript: a template literal's ${...} counts as string.
export function tokens(text) {
  const code = [];
  const strings = [];
  let line = 1;
  let i = 0;
  let current = '';
  const push = () => { if (current) code.push({ text: current, line }); current = ''; };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n') { push(); line++; i++; continue; }
    if (c === '/' && next === '/') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (c === '/' && next === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) { if (text[i] === '\n') { push(); line++; } i++; }
      i += 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      // A C++ digit separator (1'000) or a char like 'x' is short: treat it as a string anyway.
      const start = line;
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') { value += text[j + 1] ?? ''; j += 2; continue; }
        if (text[j] === '\n') { if (c !== '`') break; line++; }
        value += text[j];
        j++;
      }
      strings.push({ text: value, line: start });
      current += ' "" ';
      i = j + 1;
      continue;
    }
    current += c;
    i++;
  }
  push();
  return { code, strings };
}

export function violations(path, text, names) {
  const found = [];
  const word = new RegExp(`(^|[^A-Za-z0-9])(${names.join('|')})([^a-z0-9]|$)`, 'i');
  const identifier = new RegExp(`[A-Za-z_0-9]*(${names.join('|')})[A-Za-z_0-9]*`, 'i');
  const { code, strings } = tokens(text);
  for (const { text: t, line } of code) {
    const m = identifier.exec(t);
    if (m) found.push(`${path}:${line}: names the format in code: ${m[0]}`);
    if (/\bFormat::/.test(t)) found.push(`${path}:${line}: a Format:: enumerator`);
    if (/\bfamily\s*[!=]==?/.test(t)) found.push(`${path}:${line}: compares a format family`);
  }
  for (const { text: t, line } of strings) {
    if (/\s/.test(t)) continue; // prose: help text, messages
    if (word.test(t)) found.push(`${path}:${line}: names the format in a string: "${t}"`);
  }
  return found;
}

test('no file outside a format folder names a format in code', () => {
  const names = formatNames();
  assert.ok(names.length >= 3, `formats found: ${names.join(', ')}`);
  const found = [];
  for (const file of checkedFiles(names)) found.push(...violations(relative(root, file), readFileSync(file, 'utf8'), names));
  assert.deepEqual(found, []);
});

test('the lint catches what it must', () => {
  const names = ['toy'];
  const bad = [
    'if (family == "toy") {}',
    "const x = 'toy';",
    '#include "toy/inspector.h"',
    'auto e = Format::Toy;',
    'renderToyMap();',
    'const FAMILY = { toy: 1 };',
  ];
  for (const line of bad) assert.notDeepEqual(violations('x', line, names), [], line);
  const fine = [
    '// the toy format has a comment',
    '/* toy */ int a;',
    'fail("this is not a toy log");',
    'const text = `a toy log`;',
  ];
  for (const line of fine) assert.deepEqual(violations('x', line, names), [], line);
  assert.equal(basename(fileURLToPath(import.meta.url)), 'format-names.test.mjs');
});
