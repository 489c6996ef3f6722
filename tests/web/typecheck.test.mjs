// The page's types (web/src/types.js, JSDoc checked by tsc: `npm run typecheck`). No browser:
// tsc runs on the page, on a module that reads a field the report does not have (it must be
// refused, naming the field), and with --noImplicitAny to hold the annotated files to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc'); // a devDependency (npm install)
const run = promisify(execFile);

// tsc's diagnostics ({file, code, text}) and exit status for a config.
async function typecheck(config, extra = []) {
  let stdout = '', code = 0;
  try {
    ({ stdout } = await run(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', config, ...extra], { cwd: root, maxBuffer: 64 << 20 }));
  } catch (error) {
    ({ stdout, code } = error);
  }
  const errors = [...stdout.matchAll(/^(\S+?)\(\d+,\d+\): error (TS\d+): (.*)$/gm)].map(([, file, id, text]) => ({ file, code: id, text }));
  return { code, errors, stdout };
}

test('the page type-checks with its config', async () => {
  const { code, stdout } = await typecheck('web/tsconfig.json');
  assert.equal(code, 0, stdout);
});

test('a page module reading a field the report lacks is refused, and the error names the field', async () => {
  const { code, errors, stdout } = await typecheck('tests/web/fixtures/typecheck-negative/tsconfig.json');
  assert.notEqual(code, 0, 'tsc accepted report.file.sizeBytes');
  assert.equal(errors.length, 1, stdout);
  assert.match(errors[0].file, /reads-missing-field\.js$/);
  assert.equal(errors[0].code, 'TS2551');
  assert.match(errors[0].text, /Property 'sizeBytes' does not exist on type 'FileFacts'/);
});

// Files whose parameters are not annotated yet: implicit any is allowed there, and only there
// (web/tsconfig.json turns noImplicitAny off for them). Annotate one, then take it off the list:
// a file on the list that has become clean fails this test.
const IMPLICIT_ANY_PENDING = [
  'web/src/data-views/blocks.js', 'web/src/data-views/messages.js',
  'web/src/fact-views.js', 'web/src/file-header.js', 'web/src/file-map.js', 'web/src/hexview.js', 'web/src/later-facts.js',
  'web/src/open.js', 'web/src/output-result.js', 'web/src/output-run.js', 'web/src/outputs.js', 'web/src/problems.js',
  'web/src/record.js', 'web/src/remote.js', 'web/src/summary.js', 'web/src/tab-bar.js', 'web/src/tree.js',
  'web/src/plots/actor-map.js', 'web/src/plots/chart.js', 'web/src/plots/fields.js', 'web/src/plots/kit.js',
  'web/src/plots/map-draw.js', 'web/src/plots/plot-card.js', 'web/src/plots/range.js', 'web/src/plots/timeline.js',
  'web/src/tabs/data.js', 'web/src/tabs/explore.js', 'web/src/tabs/extract.js',
  'web/src/tabs/overview.js', 'web/src/tabs/plots.js', 'web/src/tabs/problems.js',
];

test('no implicit any outside the files still pending', async () => {
  const { errors } = await typecheck('web/tsconfig.json', ['--noImplicitAny']);
  const outside = errors.filter((e) => !IMPLICIT_ANY_PENDING.includes(e.file));
  assert.deepEqual(outside, [], 'implicit any (or another error) in a file held to noImplicitAny');
  const clean = IMPLICIT_ANY_PENDING.filter((file) => !errors.some((e) => e.file === file));
  assert.deepEqual(clean, [], 'these files have no implicit any any more: take them off IMPLICIT_ANY_PENDING');
});
