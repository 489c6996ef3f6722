// Every format has its page module, web/src/data-views/<format>.js: the page imports it by the
// format table's name (data-views/index.js formatPage), and a missing module is a failed load, a
// 404 in the browser's console, on every file of that format. The formats are the codec's folders
// with an entry.cpp, as tests/lint/format-names.test.mjs finds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('every format has its page module in web/src/data-views/', () => {
  const formats = readdirSync(join(root, 'codec')).filter((d) => existsSync(join(root, 'codec', d, 'entry.cpp')));
  assert.ok(formats.length >= 3, `formats found: ${formats.join(', ')}`);
  const missing = formats.filter((name) => !existsSync(join(root, 'web', 'src', 'data-views', `${name}.js`)));
  assert.deepEqual(missing, [], 'add web/src/data-views/<format>.js (export default {} when the page needs nothing beyond the format table)');
});
