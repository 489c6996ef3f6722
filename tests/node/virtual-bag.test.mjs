// The virtual ROS bag of bench/virtual (issue 36, "Any size"): made from a template our writer
// produced, a 2 GB bag written to disk is valid for `logscope check` and for python3-rosbag, the
// same bag served over HTTP checks the same, and opening it remotely takes a number of requests
// that does not grow from 2 GB to 100 GB.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from '../wasm/support.mjs';
import { assertPlotRounds, assertRangesAgree, cli, comparable } from './virtual-support.mjs';
import { VirtualBag } from '../../bench/virtual/rosbag.mjs';
import { writeVirtual } from '../../bench/virtual/write.mjs';
import { startServer } from '../../bench/virtual/serve.mjs';
import { httpReader } from '../../web/src/readers.js';
import { readScatteredRemote } from '../../web/src/byteranges.js';

const GB = 2 ** 30;
const haveCli = existsSync(cliPath);
const havePython = () => spawnSync('/usr/bin/python3', ['-c', 'import rosbag']).status === 0;

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
  assertRangesAgree(bag);
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

// Found with this test (2026-12-02): `info` read 4 KiB at every chunk's start, one request per
// chunk (2751 for 2 GB). Its compression line needs every chunk's header, so the requests still
// grow with the chunks, but a hundred headers go in one request (multipart/byteranges,
// HttpByteSource::read_scattered), and servers that answer several ranges otherwise (the whole
// file, as S3; only the first range) are asked one range a request with the same result.
const SMALL = 256 * 2 ** 20;
test('a remote bag\'s chunk headers are read a hundred a request, and one a request from servers without multipart answers', {
  skip: !haveCli && 'build/native/logscope is not built (npm run build:native)',
  timeout: 300000,
}, async () => {
  const path = join(dir, 'small.bag');
  writeVirtual({ bag: template }, path, SMALL);
  const local = await cli(['info', path]);
  assert.equal(local.status, 0, local.stderr);
  const chunks = new VirtualBag(readFileSync(template), SMALL).chunkCount;
  assert.ok(chunks > 300, `${chunks} chunks`);
  // The info text names the file: the local one's path becomes the URL's.
  const text = (info, name) => info.stdout.replace(name, 'BAG');
  for (const multiRange of ['multipart', 'whole', 'first']) {
    const other = await startServer({ templates: { bag: template }, multiRange });
    try {
      const url = `${other.base}/small.bag?size=${SMALL}`;
      const info = await cli(['info', url], 60000);
      assert.equal(info.status, 0, `${multiRange}: ${info.stderr}`);
      assert.equal(text(info, url), text(local, path), `${multiRange}: info of the URL equals info of the file`);
      // The probe, the index section, and the chunk headers.
      if (multiRange === 'multipart') assert.ok(other.stats.requests <= 4 + Math.ceil(chunks / 100), `${multiRange}: ${other.stats.requests} requests for ${chunks} chunks`);
      else assert.ok(other.stats.requests >= chunks, `${multiRange}: ${other.stats.requests} requests for ${chunks} chunks (one a chunk header)`);
    } finally {
      await other.close();
    }
  }
  rmSync(path);
});

// The page's reader (web/src/readers.js httpReader, web/src/byteranges.js) reads the same
// ranges the same ways: every range handed over holds the file's bytes, whichever way the server
// answers several ranges.
test('the page reads scattered ranges of a remote file a hundred a request, and alone where the server answers otherwise', {
  skip: !haveCli && 'build/native/logscope is not built (npm run build:native)',
}, async () => {
  const bag = new VirtualBag(readFileSync(template), SMALL);
  const size = bag.size;
  let seed = 11;
  const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const starts = [...new Set(Array.from({ length: 450 }, () => random(size - 600)))].sort((x, y) => x - y);
  /** @type {[number, number][]} */
  const ranges = starts.map((start, i) => [start, Math.min(512, (starts[i + 1] ?? size) - start)]);
  for (const multiRange of ['multipart', 'whole', 'first']) {
    const other = await startServer({ templates: { bag: template }, multiRange });
    try {
      const url = `${other.base}/small.bag?size=${SMALL}`;
      const reader = httpReader({ url, size, name: 'small.bag', etag: `"bag-${size}"` });
      const got = new Map();
      const handed = await readScatteredRemote(reader, ranges, (offset, bytes) => (got.set(offset, Buffer.from(bytes)), true));
      assert.equal(handed, ranges.length, multiRange);
      for (const [offset, length] of ranges) assert.ok(got.get(offset)?.equals(bag.read(offset, length)), `${multiRange}: bytes ${offset}+${length}`);
      if (multiRange === 'multipart') assert.equal(other.stats.requests, Math.ceil(ranges.length / 100));
      else assert.ok(other.stats.requests >= ranges.length, `${multiRange}: ${other.stats.requests} requests`);
    } finally {
      await other.close();
    }
  }
});

// At 100 GB (154,857 chunks), `info` takes a request per hundred chunk headers: the count grows
// with the chunks, by a hundredth of what it was.
test('info of a 100 GB remote virtual bag takes one request per hundred chunks', {
  skip: !haveCli && 'build/native/logscope is not built (npm run build:native)',
  timeout: 300000,
}, async () => {
  await fetch(`${server.base}/stats?reset=1`);
  const info = await cli(['info', `${server.base}/open.bag?size=100G`, '--json'], 240000);
  const stats = await (await fetch(`${server.base}/stats`)).json();
  assert.equal(info.status, 0, `${info.stderr}; ${stats.requests} requests`);
  const chunks = new VirtualBag(readFileSync(template), 100 * GB).chunkCount;
  assert.ok(stats.requests <= 4 + Math.ceil(chunks / 100), `${stats.requests} requests for ${chunks} chunks`);
});

// Found with bench:scale (2026-12-06): a plot over a whole remote bag read its sampled chunks one
// request after another, a round trip each (32 chunks: 35 requests in 2.0 s at 50 ms a request).
// The chunks a pass will read are now announced to the cache (ByteSource::will_read_ranges) and
// fetched 32 MB at a time, many requests in flight. The server counts the rounds the reader waited
// for one after another; a server without multipart answers takes a round or two more per window.
test('a plot over a 100 GB remote virtual bag fetches its sampled chunks in a few rounds, and any server gives the same plot', {
  skip: !haveCli && 'build/native/logscope is not built (npm run build:native)',
  timeout: 300000,
}, async () => {
  // The open takes a few rounds, then each window of the sample one (or, one range a request, a
  // few). Here (2026-12-06): 8 and 13 rounds of 105 and 203 requests; before, 200 and more.
  await assertPlotRounds({ ext: 'bag', template, topic: '/imu/data', fields: 'linear_acceleration.x', sampled: 200, bounds: { multipart: 16, first: 30 }, maxRequests: 600 });
});
