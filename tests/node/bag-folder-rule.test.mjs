// The page's rule for "this folder is one rosbag2 bag" (web/src/folder-open.js isBagFolder, used
// for a chosen, dropped or batched folder) against the codec's (rosbag2/bag.cpp bag_storage, which
// `logscope info FOLDER` applies): the same answer for every shape of folder, so a folder the CLI
// opens as a bag is never split into rows by the page, nor the other way round. Both apply the
// format table's folder rule (codec/rosbag2/entry.cpp), which the page reads from
// web/gen/folder-rules.js (written by the build: scripts/write-folder-rules.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliPath } from '../wasm/support.mjs';

const rulesPath = fileURLToPath(new URL('../../web/gen/folder-rules.js', import.meta.url));

// [folder name, its files, whether it is a bag]
const CASES = [
  ['run', ['metadata.yaml'], true],
  ['run', ['metadata.yaml', 'run_0.mcap'], true],
  ['run', ['run_0.db3'], true],
  ['run', ['anything.db3.zstd'], true],
  ['run', ['test.bag', 'test.bag-wal'], true],
  ['run', ['test.bag', 'test.bag-shm'], true],
  ['run', ['test.bag-wal'], false],
  ['run', ['notes.txt'], false],
];
// A yaml-less folder of MCAP splits: a bag when the files are named as rosbag2 names its splits.
const SPLITS = [
  ['run', ['run_0.mcap'], true],
  ['run', ['run_0.mcap', 'run_1.mcap'], true],
  ['run', ['run_12.mcap', 'notes.txt'], true],
  ['run', ['run_123456789.mcap'], true],
  ['my_bag', ['my_bag_0.mcap'], true],
  ['run_1', ['run_1_2.mcap'], true],
  ['run', ['other_0.mcap'], false],
  ['run', ['run_01.mcap'], false],
  ['run', ['run_a.mcap'], false],
  ['run', ['run_.mcap'], false],
  ['run', ['run_1234567890.mcap'], false],
  ['run', ['run_0.mcap.bak'], false],
  ['run', ['a.mcap', 'b.mcap'], false],
];

// Each case in a folder of its own; the CLI's answer and the page's.
function answers(cases, isBagFolder) {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-bag-rule-'));
  try {
    return cases.map(([name, files], i) => {
      const folder = join(dir, String(i), name);
      mkdirSync(folder, { recursive: true });
      for (const f of files) writeFileSync(join(folder, f), '');
      const { stdout, stderr } = spawnSync(cliPath, ['info', folder], { encoding: 'utf8' });
      return { what: `${name}/{${files}}`, cli: !/is a directory/.test(`${stdout}${stderr}`), page: isBagFolder(name, files) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The page's isBagFolder, or why it cannot be tried.
async function pageRule() {
  if (!existsSync(cliPath)) return { skip: 'SKIPPED: build/native/logscope is not built' };
  if (!existsSync(rulesPath)) return { skip: 'SKIPPED: web/gen/folder-rules.js is not written (bash scripts/build.sh)' };
  return { isBagFolder: (await import('../../web/src/folder-open.js')).isBagFolder };
}

function agree(cases, isBagFolder) {
  answers(cases, isBagFolder).forEach(({ what, cli, page }, i) => {
    assert.equal(cli, cases[i][2], `the CLI on ${what}`);
    assert.equal(page, cases[i][2], `the page on ${what}`);
  });
}

test('a folder is a bag in the page exactly when the CLI opens it as one', async (t) => {
  const { skip, isBagFolder } = await pageRule();
  if (skip) return t.skip(skip);
  agree(CASES, isBagFolder);
});

test('a yaml-less folder of MCAP splits is a bag in the page too', async (t) => {
  const { skip, isBagFolder } = await pageRule();
  if (skip) return t.skip(skip);
  agree(SPLITS, isBagFolder);
});
