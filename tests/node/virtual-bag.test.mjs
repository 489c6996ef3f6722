// The virtual ROS bag of bench/virtual (issue 36, "Any size"): made from a template our writer
// produced, a 2 GB bag written to disk is valid for `logscope check` and for python3-rosbag, the
// same bag served over HTTP checks the same, and opening it remotely takes a number of requests
// that does not grow from 2 GB to 100 GB.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliPath } from '../wasm/support.mjs';
import { VirtualBag } from '../../bench/virtual/rosbag.mjs';
import { writeVirtual } from '../../bench/virtual/write.mjs';
import { startServer } from '../../bench/virtual/serve.mjs';

const GB = 2 ** 30;
const haveCli = existsSync(cliPath);
const havePython = () => spawnSync('/usr/bin/python3', ['-c', 'import rosbag']).status === 0;
const run = promisify(execFile);

// The CLI runs asynchronously: the server answering it lives in this process.
async function cli(args, timeout = 0) {
  try {
    const { stdout, stderr } = await run(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout, env: { ...process.env, TZ: 'UTC' } });
    return { status: 0, stdout, stderr };
  } catch (error) {
    if (error.killed) return { status: null, stdout: error.stdout, stderr: `killed after ${timeout} ms` };
    if (typeof error.code !== 'number') throw error;
    return { status: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

// Messages per topic as python3-rosbag counts them from the bag's index.
const PY_COUNTS = `
import json, rosbag, sys
info = rosbag.Bag(sys.argv[1]).get_type_and_topic_info()
print(json.dumps({t: v.message_count for t, v in info.topics.items()}))
`;

// Messages per topic from check --json's topics table.
function topicCounts(json) {
  const table = json.report.tables.find((t) => t.name === 'topics');
  const [topic, messages] = ['topic', 'messages'].map((c) => table.columns.indexOf(c));
  return Object.fromEntries(table.rows.map((row) => [row[topic], row[messages]]));
}

// A check result without the path it was given.
const comparable = (json) => ({ ...json, path: undefined });

let dir, template, server;
before(async () => {
  if (!haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'virtual-bag-'));
  template = join(dir, 'template.bag');
  // Uncompressed: every message time inside the chunks is shifted too (see bench/virtual/rosbag.mjs).
  const made = await cli(['make-demo-rosbag', template, '--size-mb', '4', '--compression', 'none']);
  assert.equal(made.status, 0, made.stderr);
  server = await startServer({ templates: { bag: template } });
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a virtual bag of the template size is the template, byte for byte', { skip: !haveCli && 'build/native/logscope is not built (npm run build:native)' }, () => {
  const bytes = readFileSync(template);
  const bag = new VirtualBag(bytes, bytes.length);
  assert.equal(bag.size, bytes.length);
  assert.ok(bag.read(0, bag.size).equals(bytes));
});

test('ranges read alone equal the same ranges of the whole file', { skip: !haveCli && 'build/native/logscope is not built (npm run build:native)' }, () => {
  const bytes = readFileSync(template);
  const bag = new VirtualBag(bytes, 5 * bytes.length + 12345);
  const whole = bag.read(0, bag.size);
  assert.equal(whole.length, bag.size);
  let seed = 7;
  const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let i = 0; i < 3000; ++i) {
    const offset = random(bag.size), length = random(i % 2 ? 64 : 300000);
    assert.ok(bag.read(offset, length).equals(whole.subarray(offset, offset + length)), `range ${offset}+${length}`);
  }
});

// 2 GB: writing it took 10 s, check 2 s and python3-rosbag 9 s on the busy 2-core test machine.
test('a 2 GB virtual bag: check (local and remote) and python3-rosbag agree', { skip: !haveCli && 'build/native/logscope is not built (npm run build:native)', timeout: 600000 }, async (t) => {
  const path = join(dir, 'virtual.bag');
  const size = writeVirtual({ bag: template }, path, 2 * GB);
  assert.equal(statSync(path).size, size);
  const bag = new VirtualBag(readFileSync(template), 2 * GB);
  assert.ok(bag.chunkCount > 2000, `${bag.chunkCount} chunks`);

  const local = await cli(['check', path, '--json']);
  assert.equal(local.status, 0, `check exit status; ${local.stdout.slice(0, 2000)}`);
  const report = JSON.parse(local.stdout);
  assert.deepEqual(report.report.problems, []);
  assert.equal(report.report.file.counts.chunks, bag.chunkCount);
  assert.equal(report.report.file.counts.messages, bag.messageCount);
  await t.test('python3-rosbag counts the same messages per topic', { skip: !havePython() && 'python3-rosbag is not installed' }, () => {
    const py = spawnSync('/usr/bin/python3', ['-c', PY_COUNTS, path], { encoding: 'utf8' });
    assert.equal(py.status, 0, py.stderr);
    assert.deepEqual(topicCounts(report), JSON.parse(py.stdout));
  });

  const remote = await cli(['check', `${server.base}/virtual.bag?size=2G`, '--json']);
  assert.equal(remote.status, 0, remote.stdout.slice(0, 2000));
  assert.deepEqual(comparable(JSON.parse(remote.stdout)), comparable(report));
  rmSync(path);
});

// Found with this test (2026-12-02): the reader reads 4 KiB at every chunk's start while opening,
// one request per chunk (2751 for 2 GB), so the count grows with the size. Until the reader
// takes the chunk headers from the chunk infos, this stays a todo; the 100 GB open is cut off
// after 20 s (its count is then already past the 2 GB one).
test('opening a remote virtual bag takes as many requests at 100 GB as at 2 GB', {
  skip: !haveCli && 'build/native/logscope is not built (npm run build:native)',
  todo: 'the rosbag reader makes one request per chunk while opening a remote bag',
  timeout: 120000,
}, async () => {
  const requests = {};
  for (const size of ['2G', '100G']) {
    await fetch(`${server.base}/stats?reset=1`);
    const info = await cli(['info', `${server.base}/open.bag?size=${size}`, '--json'], 20000);
    const stats = await (await fetch(`${server.base}/stats`)).json();
    requests[size] = stats.requests;
    assert.equal(info.status, 0, `info of ${size}: ${info.stderr}; ${stats.requests} requests`);
  }
  assert.ok(requests['2G'] <= 8, `open of 2 GB: ${requests['2G']} requests`);
  assert.ok(requests['100G'] <= requests['2G'], `open: ${JSON.stringify(requests)} requests`);
});
