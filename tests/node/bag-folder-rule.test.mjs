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

// [folder name, its files, whether it is a bag]
const CASES = [
  ['run', ['metadata.yaml'], true],
  ['run', ['metadata.yaml', 'run_0.mcap'], true],
  ['run', ['run_0.db3'], true],
  ['run', ['anything.db3.zstd'], true],
  ['run', ['run_0.mcap'], true],
  ['run', ['run_0.mcap', 'run_1.mcap'], true],
  ['run', ['run_12.mcap', 'notes.txt'], true],
  ['run', ['other_0.mcap'], false],
  ['run', ['run_01.mcap'], false],
  ['run', ['run_a.mcap'], false],
  ['run', ['a.mcap', 'b.mcap'], false],
  ['run', ['notes.txt'], false],
  ['my_bag', ['my_bag_0.mcap'], true],
];

test('a folder is a bag in the page exactly when the CLI opens it as one', (t) => {
  if (!existsSync(cliPath)) return t.skip('SKIPPED: build/native/logscope is not built');
  const dir = mkdtempSync(join(tmpdir(), 'logscope-bag-rule-'));
  try {
    CASES.forEach(([name, files, bag], i) => {
      const folder = join(dir, String(i), name);
      mkdirSync(folder, { recursive: true });
      for (const f of files) writeFileSync(join(folder, f), '');
      const { stdout, stderr } = spawnSync(cliPath, ['info', folder], { encoding: 'utf8' });
      const said = `${stdout}${stderr}`;
      const cliSaysBag = !/is a directory/.test(said);
      assert.equal(cliSaysBag, bag, `the CLI on ${name}/{${files}}: ${said}`);
      assert.equal(isBagFolder(files, name), bag, `the page on ${name}/{${files}}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
