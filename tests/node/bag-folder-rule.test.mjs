// The page's rule for "this folder is one rosbag2 bag" (web/src/folder-open.js isBagFolder, used
// for a chosen, dropped or batched folder) against the codec's (rosbag2/bag.cpp bag_storage, which
// `logscope info FOLDER` applies): the same answer for every shape of folder, so a folder the CLI
// opens as a bag is never split into rows by the page, nor the other way round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBagFolder } from '../../web/src/folder-open.js';
import { cliPath } from '../wasm/support.mjs';

// [folder name, its files, whether it is a bag, why the page differs (a todo) or null]
// The page does not yet know the codec's rule for a folder of MCAP splits with no yaml
// (`<folder>_<N>.mcap`): naming the storage in shared page code is what the format lint forbids,
// and the page's folder code has no format table at hand. It shows such a folder as one row per
// file instead; each opens.
const SPLITS = 'the page lists a yaml-less folder of MCAP splits file by file';
const CASES = [
  ['run', ['metadata.yaml'], true],
  ['run', ['metadata.yaml', 'run_0.mcap'], true],
  ['run', ['run_0.db3'], true],
  ['run', ['anything.db3.zstd'], true],
  ['run', ['run_0.mcap'], true, SPLITS],
  ['run', ['run_0.mcap', 'run_1.mcap'], true, SPLITS],
  ['run', ['run_12.mcap', 'notes.txt'], true, SPLITS],
  ['run', ['other_0.mcap'], false],
  ['run', ['run_01.mcap'], false],
  ['run', ['run_a.mcap'], false],
  ['run', ['a.mcap', 'b.mcap'], false],
  ['run', ['notes.txt'], false],
  ['my_bag', ['my_bag_0.mcap'], true, SPLITS],
];

// Each case in a folder of its own; the CLI's answer and the page's.
function answers(cases) {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-bag-rule-'));
  try {
    return cases.map(([name, files], i) => {
      const folder = join(dir, String(i), name);
      mkdirSync(folder, { recursive: true });
      for (const f of files) writeFileSync(join(folder, f), '');
      const { stdout, stderr } = spawnSync(cliPath, ['info', folder], { encoding: 'utf8' });
      return { what: `${name}/{${files}}`, cli: !/is a directory/.test(`${stdout}${stderr}`), page: isBagFolder(files) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a folder is a bag in the page exactly when the CLI opens it as one', (t) => {
  if (!existsSync(cliPath)) return t.skip('SKIPPED: build/native/logscope is not built');
  const cases = CASES.filter((c) => !c[3]);
  answers(cases).forEach(({ what, cli, page }, i) => {
    assert.equal(cli, cases[i][2], `the CLI on ${what}`);
    assert.equal(page, cases[i][2], `the page on ${what}`);
  });
});

test('a yaml-less folder of MCAP splits is a bag in the page too', { todo: SPLITS }, (t) => {
  if (!existsSync(cliPath)) return t.skip('SKIPPED: build/native/logscope is not built');
  const cases = CASES.filter((c) => c[3]);
  answers(cases).forEach(({ what, cli, page }) => {
    assert.equal(cli, true, `the CLI on ${what}`);
    assert.equal(page, true, `the page on ${what}`);
  });
});
