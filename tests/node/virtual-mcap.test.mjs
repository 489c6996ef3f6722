// The virtual MCAP of bench/virtual (issue 36, "Any size"): made from a template our writer
// produced, a 2 GB MCAP written to disk checks clean and @mcap/core streams the same messages per
// channel through every chunk (CRCs checked), the same MCAP served over HTTP checks the same, and
// opening it remotely reads the footer and the summary only, from 2 GB to 100 GB.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { loadDecompressHandlers } from '@mcap/support';
import { assertPlotRounds, assertRangesAgree, cli, comparable, needCli } from './virtual-support.mjs';
import { VirtualMcap } from '../../bench/virtual/mcap.mjs';
import { writeVirtual } from '../../bench/virtual/write.mjs';
import { startServer } from '../../bench/virtual/serve.mjs';

const GB = 2 ** 30;

// Messages per channel topic, as @mcap/core's stream reader finds them in every chunk, with every
// chunk CRC checked; the file is streamed 8 MiB at a time.
async function streamCounts(path) {
  const reader = new McapStreamReader({ decompressHandlers: await loadDecompressHandlers(), validateCrcs: true });
  const topics = new Map(), counts = {};
  const fd = openSync(path, 'r');
  try {
    const piece = Buffer.alloc(8 << 20);
    for (let got; (got = readSync(fd, piece, 0, piece.length, null)) > 0;) {
      reader.append(piece.subarray(0, got));
      for (let record; (record = reader.nextRecord());) {
        if (record.type === 'Channel') topics.set(record.id, record.topic);
        else if (record.type === 'Message') counts[topics.get(record.channelId)] = (counts[topics.get(record.channelId)] ?? 0) + 1;
      }
    }
  } finally {
    closeSync(fd);
  }
  assert.ok(reader.done(), '@mcap/core read to the end');
  return counts;
}

function channelCounts(json) {
  const table = json.report.tables.find((t) => t.name === 'channels');
  const [topic, messages] = ['topic', 'messages'].map((c) => table.columns.indexOf(c));
  return Object.fromEntries(table.rows.map((row) => [row[topic], row[messages]]));
}

let dir, template, server;
before(async () => {
  if (needCli) return;
  dir = mkdtempSync(join(tmpdir(), 'virtual-mcap-'));
  template = join(dir, 'template.mcap');
  const made = await cli(['make-demo-mcap', template, '--size-mb', '4', '--compression', 'none']);
  assert.equal(made.status, 0, made.stderr);
  server = await startServer({ templates: { mcap: template } });
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('ranges of a virtual MCAP read alone equal the same ranges of the whole file', { skip: needCli }, () => {
  const bytes = readFileSync(template);
  const mcap = new VirtualMcap(bytes, 5 * bytes.length + 12345);
  assertRangesAgree(mcap);
});

test('a template that is not an uncompressed, summarised MCAP is refused with its reason', { skip: needCli }, async () => {
  const zstd = join(dir, 'zstd.mcap');
  assert.equal((await cli(['make-demo-mcap', zstd, '--size-mb', '1'])).status, 0);
  assert.throws(() => new VirtualMcap(readFileSync(zstd), GB), /compressed \(zstd\): write the template with --compression none/);
  const bare = join(dir, 'bare.mcap');
  assert.equal((await cli(['make-demo-mcap', bare, '--size-mb', '1', '--compression', 'none', '--no-summary'])).status, 0);
  assert.throws(() => new VirtualMcap(readFileSync(bare), GB), /no summary section/);
  assert.throws(() => new VirtualMcap(readFileSync(template).subarray(0, 1000), GB), /not an MCAP file/);
});

test('a 2 GB virtual MCAP: check (local and remote) and @mcap/core agree', { skip: needCli, timeout: 600000 }, async () => {
  const path = join(dir, 'virtual.mcap');
  const size = writeVirtual({ mcap: template }, path, 2 * GB);
  assert.equal(statSync(path).size, size);
  const mcap = new VirtualMcap(readFileSync(template), 2 * GB);
  assert.ok(mcap.chunkCount > 2000, `${mcap.chunkCount} chunks`);

  const local = await cli(['check', path, '--json']);
  assert.equal(local.status, 0, `check exit status; ${local.stdout.slice(0, 2000)}`);
  const report = JSON.parse(local.stdout);
  assert.deepEqual(report.report.problems, []);
  assert.equal(report.report.file.counts.chunks, mcap.chunkCount);
  assert.equal(report.report.file.counts.messages, mcap.messageCount);
  assert.deepEqual(channelCounts(report), await streamCounts(path));

  const remote = await cli(['check', `${server.base}/virtual.mcap?size=2G`, '--json']);
  assert.equal(remote.status, 0, remote.stdout.slice(0, 2000));
  assert.deepEqual(comparable(JSON.parse(remote.stdout)), comparable(report));
  rmSync(path);
});

// Opening reads the magic, the footer's neighbourhood and the summary: requests that do not grow,
// and bytes that grow only with the summary (a chunk index per chunk). At 100 GB the summary's
// 13.5 MiB of chunk indexes are past codec/mcap/reader.h's kDeferChunkIndexesAbove: the open reads
// the summary without them first (one request more, for its schemas and channels), then info's
// compression facts read the whole summary.
test('info of a remote virtual MCAP reads the summary only, at 2 GB and at 100 GB', { skip: needCli, timeout: 300000 }, async () => {
  for (const gb of [2, 100]) {
    const mcap = new VirtualMcap(readFileSync(template), gb * GB);
    await fetch(`${server.base}/stats?reset=1`);
    const info = await cli(['info', `${server.base}/open.mcap?size=${gb}G`, '--json'], 240000);
    const stats = await (await fetch(`${server.base}/stats`)).json();
    assert.equal(info.status, 0, `${gb} GB: ${info.stderr}`);
    assert.equal(JSON.parse(info.stdout).summary.file.counts.messages, mcap.messageCount, `${gb} GB: messages`);
    const deferred = gb === 100;
    assert.ok(stats.requests <= (deferred ? 5 : 4), `${gb} GB: ${stats.requests} requests`);
    const summary = mcap.size - mcap.file.summaryStart;
    assert.ok(stats.bytes <= summary + (deferred ? 16384 : 8192), `${gb} GB: ${stats.bytes} bytes read for a ${summary}-byte summary`);
  }
});

// Found with bench:scale (2026-12-04): a 1 TB MCAP's summary (141 MB) was past the 64 MiB read at
// once, so info scanned the terabyte instead. A sparse file holding only a 600 GB virtual MCAP's
// head, summary and footer (85 MB of summary) now opens from its summary.
test('info of a 600 GB MCAP opens from its 85 MB summary, not by scanning', { skip: needCli, timeout: 300000 }, async () => {
  const mcap = new VirtualMcap(readFileSync(template), 600 * GB);
  const summary = mcap.size - mcap.file.summaryStart;
  assert.ok(summary > 80 * 2 ** 20, `a ${summary}-byte summary`);
  const path = join(dir, 'sparse.mcap');
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, mcap.size);
    const put = (offset, length) => { const bytes = mcap.read(offset, length); writeSync(fd, bytes, 0, bytes.length, offset); };
    put(0, 1 << 16);
    for (let at = mcap.file.summaryStart - 13; at < mcap.size; at += 16 << 20) put(at, Math.min(16 << 20, mcap.size - at));
  } finally {
    closeSync(fd);
  }
  const info = await cli(['info', path, '--json'], 120000);
  assert.equal(info.status, 0, info.stderr);
  const json = JSON.parse(info.stdout).summary;
  assert.deepEqual(json.problems.map((p) => p.code), []);
  assert.equal(json.file.counts.messages, mcap.messageCount);
  assert.equal(json.file.counts.chunks, mcap.chunkCount);
  rmSync(path);
});

// Found with the planned reads (2026-12-06): a plot or export of an indexed MCAP first listed every
// top-level record by reading its head, a request each by URL (27,808 requests, 10 s, for a plot
// of 50 chunks of a 10 GB file on localhost). Its chunks now come from the summary's chunk
// indexes, fetched 32 MB at a time (ByteSource::will_read_ranges), and only what lies between
// them is walked. A 100 GB plot, with the server 20 ms late: a few rounds, and the same points as
// from a server without multipart answers.
test('a plot over a 100 GB remote virtual MCAP reads its sampled chunks in a few rounds, and any server gives the same plot', { skip: needCli, timeout: 300000 }, async () => {
  // Here (2026-12-06): 17 and 27 rounds, 325 and 405 requests (the summary's 13.5 MB of chunk
  // indexes are read first, in growing pieces). Listing the records took 27,808 requests at 10 GB.
  await assertPlotRounds({ ext: 'mcap', template, topic: '/imu', fields: 't', sampled: 200, bounds: { multipart: 30, first: 45 }, maxRequests: 1000 });
});
