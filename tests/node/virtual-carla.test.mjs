// The virtual CARLA recorder log of bench/virtual (issue 36, "Any size"): made from a template our
// writer produced, a log of the template's size is the template byte for byte, a 2 GB log written
// to disk checks as the template does (the same notes, no warning), the same log served over HTTP
// checks the same, and opening it remotely reads each byte once, 8 MiB a request: a CARLA log has
// no index, so its summary is a scan of the whole file (and check, a second pass: doctor.h).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertRangesAgree, cli, comparable, needCli } from './virtual-support.mjs';
import { VirtualCarla } from '../../bench/virtual/carla.mjs';
import { writeVirtual } from '../../bench/virtual/write.mjs';
import { startServer } from '../../bench/virtual/serve.mjs';

const GB = 2 ** 30;

const codes = (json) => json.report.problems.map((p) => `${p.severity} ${p.code}`).sort();

let dir, template, server;
before(async () => {
  if (needCli) return;
  dir = mkdtempSync(join(tmpdir(), 'virtual-carla-'));
  template = join(dir, 'template.log');
  const made = await cli(['make-demo-carla', template, '--size-mb', '4']);
  assert.equal(made.status, 0, made.stderr);
  server = await startServer({ templates: { log: template } });
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a virtual CARLA log of the template size is the template, byte for byte', { skip: needCli }, () => {
  const bytes = readFileSync(template);
  const log = new VirtualCarla(bytes, bytes.length);
  assert.equal(log.size, bytes.length);
  assert.ok(log.read(0, log.size).equals(bytes));
});

test('ranges of a virtual CARLA log read alone equal the same ranges of the whole file', { skip: needCli }, () => {
  const bytes = readFileSync(template);
  const log = new VirtualCarla(bytes, 5 * bytes.length + 12345);
  assertRangesAgree(log);
});

test('a template that is not a CARLA log is refused with its reason', { skip: needCli }, () => {
  assert.throws(() => new VirtualCarla(Buffer.from('#ROSBAG V2.0\n'.repeat(10)), GB), /not a CARLA recorder log/);
  const bytes = readFileSync(template);
  assert.throws(() => new VirtualCarla(bytes.subarray(0, bytes.length - 3), GB), /runs past the end of the template|has no end/);
});

test('a 2 GB virtual CARLA log: check (local and remote) agree, as the template checks', { skip: needCli, timeout: 600000 }, async () => {
  const path = join(dir, 'virtual.log');
  const size = writeVirtual({ log: template }, path, 2 * GB);
  assert.equal(statSync(path).size, size);
  const log = new VirtualCarla(readFileSync(template), 2 * GB);
  assert.ok(log.frameCount > 500000, `${log.frameCount} frames`);

  const own = JSON.parse((await cli(['check', template, '--json'])).stdout);
  const local = await cli(['check', path, '--json']);
  assert.equal(local.status, 0, `check exit status; ${local.stdout.slice(0, 2000)}`);
  const report = JSON.parse(local.stdout);
  assert.deepEqual(codes(report), codes(own));
  assert.ok(codes(report).every((c) => c.startsWith('info ')), codes(report).join(', '));
  assert.equal(report.report.file.counts.frames, log.frameCount);

  await fetch(`${server.base}/stats?reset=1`);
  const remote = await cli(['check', `${server.base}/virtual.log?size=2G`, '--json']);
  assert.equal(remote.status, 0, remote.stdout.slice(0, 2000));
  assert.deepEqual(comparable(JSON.parse(remote.stdout)), comparable(report));
  let stats = await (await fetch(`${server.base}/stats`)).json();
  assert.ok(stats.bytes <= 2 * size * 1.01, `check: ${stats.bytes} bytes read of ${size}, in two passes`);

  await fetch(`${server.base}/stats?reset=1`);
  const info = await cli(['info', `${server.base}/virtual.log?size=2G`, '--json']);
  assert.equal(info.status, 0, info.stderr);
  assert.equal(JSON.parse(info.stdout).summary.file.counts.frames, log.frameCount);
  stats = await (await fetch(`${server.base}/stats`)).json();
  assert.ok(stats.bytes <= size * 1.01, `info: ${stats.bytes} bytes read of ${size}`);
  assert.ok(stats.requests <= 8 + Math.ceil(size / (8 << 20)), `info: ${stats.requests} requests for ${size} bytes`);
  rmSync(path);
});
