// The virtual BDDF file of bench/virtual (issue 36, "Any size"): made from a template our writer
// produced, a file of the template's size is the template byte for byte, a 2 GB file written to
// disk checks clean (its SHA1 trailer included), the same file served over HTTP checks the same, and
// opening it remotely reads the trailer and the index only: bytes that grow with the index (a
// block entry per data block), in a number of requests that does not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertRangesAgree, cli, comparable, needCli } from './virtual-support.mjs';
import { VirtualBddf } from '../../bench/virtual/bddf.mjs';
import { writeVirtual } from '../../bench/virtual/write.mjs';
import { startServer } from '../../bench/virtual/serve.mjs';

const GB = 2 ** 30;

let dir, template, server;
before(async () => {
  if (needCli) return;
  dir = mkdtempSync(join(tmpdir(), 'virtual-bddf-'));
  template = join(dir, 'template.bddf');
  const made = await cli(['make-demo-bddf', template, '--size-mb', '4']);
  assert.equal(made.status, 0, made.stderr);
  server = await startServer({ templates: { bddf: template } });
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const open = (size) => new VirtualBddf(readFileSync(template), size, { cacheDir: join(dir, 'cache') });

test('a virtual BDDF file of the template size is the template, byte for byte', { skip: needCli }, () => {
  const bytes = readFileSync(template);
  const bddf = open(bytes.length);
  assert.equal(bddf.size, bytes.length);
  assert.ok(bddf.read(0, bddf.size).equals(bytes));
});

test('ranges of a virtual BDDF file read alone equal the same ranges of the whole file', { skip: needCli }, () => {
  const bytes = readFileSync(template);
  const bddf = open(5 * bytes.length + 12345);
  assertRangesAgree(bddf);
});

test('a template that is not a whole BDDF file is refused with its reason', { skip: needCli }, () => {
  assert.throws(() => new VirtualBddf(Buffer.from('#ROSBAG V2.0\n'), GB), /not a BDDF file/);
  const bytes = readFileSync(template);
  assert.throws(() => new VirtualBddf(bytes.subarray(0, bytes.length - 100), GB), /runs past the end|no end block|trailer/);
  assert.throws(() => new VirtualBddf(bytes, 300 * GB), /at most 200 GB/);
});

test('a 2 GB virtual BDDF file: check (local and remote) agree, its SHA1 valid', { skip: needCli, timeout: 600000 }, async () => {
  const path = join(dir, 'virtual.bddf');
  const size = writeVirtual({ bddf: template }, path, 2 * GB);
  assert.equal(statSync(path).size, size);
  const bddf = open(2 * GB);
  assert.ok(bddf.blockCount > 300000, `${bddf.blockCount} blocks`);

  const local = await cli(['check', path, '--json']);
  assert.equal(local.status, 0, `check exit status; ${local.stdout.slice(0, 2000)}`);
  const report = JSON.parse(local.stdout);
  assert.deepEqual(report.report.problems, []);
  assert.equal(report.report.details.checksum.status, 'valid', report.report.details.checksum.message);
  assert.equal(report.report.file.counts.data_blocks, bddf.blockCount);

  const remote = await cli(['check', `${server.base}/virtual.bddf?size=2G`, '--json']);
  assert.equal(remote.status, 0, remote.stdout.slice(0, 2000));
  assert.deepEqual(comparable(JSON.parse(remote.stdout)), comparable(report));

  await fetch(`${server.base}/stats?reset=1`);
  const info = await cli(['info', `${server.base}/virtual.bddf?size=2G`, '--json']);
  assert.equal(info.status, 0, info.stderr);
  const stats = await (await fetch(`${server.base}/stats`)).json();
  const index = size - bddf.indexPos;
  assert.ok(stats.requests <= 12, `info: ${stats.requests} requests`);
  assert.ok(stats.bytes <= index + 64 * 1024, `info: ${stats.bytes} bytes read for a ${index}-byte index`);
  rmSync(path);
});
