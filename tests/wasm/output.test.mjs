// The page's extract, repair and export (Inspector.extract / exportRows, wasm/output_jobs.cpp)
// write through a JS sink; they must write what the CLI writes to a file: byte for byte, but for
// lz4 chunks, whose compressed bytes differ between 64-bit and wasm32 builds of liblz4 (its match
// finder depends on the pointer size): those are compared as the CLI's uncompressed copies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule, openWithWasm, runCli } from './support.mjs';

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'logscope-output-'));
  runCli(['make-demo-rosbag', join(dir, 'run.bag'), '--size-mb', '2', '--compression', 'lz4']);
  runCli(['make-demo-bddf', join(dir, 'spot.bddf'), '--size-mb', '1']);
});
after(() => rmSync(dir, { recursive: true, force: true }));

// A sink like the worker's, in memory: appends and patches at offsets; `fail` makes writes fail.
function memorySink(Module, { failAfter = Infinity } = {}) {
  const pieces = [];
  let size = 0;
  const sink = {
    error: '',
    write(pointer, length) {
      if (size + length > failAfter) { sink.error = 'the disk is full (test)'; return false; }
      pieces.push(Buffer.from(Module.HEAPU8.subarray(pointer, pointer + length)));
      size += length;
      return true;
    },
    patch(offset, pointer, length) {
      const whole = Buffer.concat(pieces);
      Buffer.from(Module.HEAPU8.subarray(pointer, pointer + length)).copy(whole, offset);
      pieces.splice(0, pieces.length, whole);
      return true;
    },
    bytes: () => Buffer.concat(pieces),
  };
  return sink;
}

// Two bags hold the same records when the CLI's uncompressed copies of them are identical.
function assertSameBag(a, b, what) {
  const copy = (bytes, name) => {
    const path = join(dir, `${name}.bag`);
    writeFileSync(path, bytes);
    assert.equal(runCli(['extract', path, `${path}.copy`, '--compression', 'none']).status, 0, `${name} re-reads clean`);
    return readFileSync(`${path}.copy`);
  };
  assert.ok(copy(a, 'a').equals(copy(b, 'b')), `${what}: the same records`);
}

// The page's scratch file (output-job.js), in memory; `failReads`: every read fails.
function memorySpill(Module, { failReads = false } = {}) {
  let bytes = Buffer.alloc(0);
  const spill = {
    error: '',
    written: 0,
    write(offset, pointer, length) {
      if (offset + length > bytes.length) bytes = Buffer.concat([bytes, Buffer.alloc(offset + length - bytes.length)]);
      Buffer.from(Module.HEAPU8.subarray(pointer, pointer + length)).copy(bytes, offset);
      spill.written += length;
      return true;
    },
    read(offset, pointer, length) {
      if (failReads) { spill.error = 'the scratch file is gone (test)'; return false; }
      Module.HEAPU8.set(bytes.subarray(offset, offset + length), pointer);
      return true;
    },
  };
  return spill;
}

async function wasmWrite(path, call, options, sinkOptions, spillOptions) {
  const Module = await loadModule();
  const wasm = await openWithWasm(path);
  try {
    const sink = memorySink(Module, sinkOptions);
    if (spillOptions) sink.spill = memorySpill(Module, spillOptions);
    const result = JSON.parse(wasm.inspector[call](JSON.stringify(options), sink, null));
    return { result, bytes: sink.bytes(), spilled: sink.spill?.written ?? 0 };
  } finally {
    wasm.close();
  }
}

test('extract of two topics in a range: what `logscope extract` writes', async () => {
  const input = join(dir, 'run.bag');
  for (const compression of ['none', 'lz4', 'bz2']) {
    const out = join(dir, `cli-extract-${compression}.bag`);
    assert.equal(runCli(['extract', input, out, '--topics', '/imu/data,/odometry/filtered', '--from', '+1', '--to', '+2.5', '--compression', compression]).status, 0);
    const { result, bytes } = await wasmWrite(input, 'extract', { mode: 'extract', topics: ['/imu/data', '/odometry/filtered'], from: '+1', to: '+2.5', compression });
    assert.equal(result.ok, true, result.error);
    assert.equal(result.bytes_written, bytes.length);
    assert.ok(result.kept.length > 0);
    if (compression === 'lz4') assertSameBag(bytes, readFileSync(out), 'lz4');
    else assert.ok(bytes.equals(readFileSync(out)), `identical bytes with ${compression} (the header patched at the end)`);
  }
});

test('repair of a truncated bag and a truncated BDDF: what `logscope repair` writes', async () => {
  for (const name of ['run.bag', 'spot.bddf']) {
    const cut = join(dir, `cut-${name}`);
    copyFileSync(join(dir, name), cut);
    truncateSync(cut, Math.floor(statSync(cut).size * 0.6));
    const out = join(dir, `cli-repaired-${name}`);
    assert.equal(runCli(['repair', cut, out]).status, 0, `CLI repair of ${name}`);
    const { result, bytes } = await wasmWrite(cut, 'extract', { mode: 'repair' });
    assert.equal(result.ok, true, result.error);
    assert.ok(result.dropped.length > 0, 'the cut tail is reported as dropped');
    if (name.endsWith('.bag')) assertSameBag(bytes, readFileSync(out), name);
    else assert.ok(bytes.equals(readFileSync(out)), `${name}: byte for byte, the SHA1 included`);
  }
});

test('export of a topic as CSV and JSON Lines: the same text as `logscope export`', async () => {
  const input = join(dir, 'run.bag');
  for (const format of ['csv', 'jsonl']) {
    const cli = runCli(['export', input, '--topic', '/imu/data', '--format', format]);
    assert.equal(cli.status, 0);
    const { result, bytes } = await wasmWrite(input, 'exportRows', { topic: '/imu/data', format });
    assert.equal(result.ok, true, result.error);
    assert.ok(result.rows > 0);
    assert.equal(bytes.toString('utf8'), cli.stdout, `${format} text`);
  }
});

test('refusals and failures are said, not written: an actor not in the log, repair with a selection, a full disk', async () => {
  const input = join(dir, 'run.bag');
  let { result } = await wasmWrite(input, 'extract', { mode: 'repair', topics: ['/odom'] });
  assert.equal(result.ok, false);
  assert.match(result.error, /repair keeps everything/);
  ({ result } = await wasmWrite(input, 'exportRows', { topic: '/no/such/topic', format: 'csv' }));
  assert.equal(result.ok, false);
  assert.match(result.error, /no\/such\/topic/);
  ({ result } = await wasmWrite(input, 'extract', { mode: 'extract' }, { failAfter: 300000 }));
  assert.equal(result.ok, false);
  assert.match(result.error, /disk is full \(test\)/);
  const carla = join(dir, 'town.log');
  runCli(['make-demo-carla', carla, '--size-mb', '1']);
  ({ result } = await wasmWrite(carla, 'extract', { mode: 'extract', sources: [987654] }));
  assert.equal(result.ok, false);
  assert.match(result.error, /987654/);
  assert.equal(result.bytes_written, 0);
  // The same log cut to its first second is written (CARLA extract, as the CLI does it).
  ({ result } = await wasmWrite(carla, 'extract', { mode: 'extract', from: '+0', to: '+1' }));
  assert.equal(result.ok, true, result.error);
  assert.ok(result.bytes_written > 0);
});

// A BDDF file's new index follows all of its blocks: the page sets it aside in a scratch file
// (output-job.js), a segment of each series at a time, and reads it back at the end.
test('a BDDF repair sets its new index aside in the scratch file: the bytes `logscope repair` writes; a failed read is said', async () => {
  const input = join(dir, 'spot30.bddf');
  runCli(['make-demo-bddf', input, '--size-mb', '30']);  // 4141 RobotState blocks: past one 64 KiB segment
  const out = join(dir, 'cli-repaired-spot30.bddf');
  const cli = runCli(['repair', input, out]);
  assert.equal(cli.status, 0);
  const plain = await wasmWrite(input, 'extract', { mode: 'repair' });
  const spilled = await wasmWrite(input, 'extract', { mode: 'repair' }, {}, {});
  for (const { result } of [plain, spilled]) assert.equal(result.ok, true, result.error);
  assert.ok(spilled.spilled >= 65536, `${spilled.spilled} bytes set aside`);
  assert.equal(plain.spilled, 0);
  assert.ok(spilled.bytes.equals(readFileSync(out)), 'with the scratch file: byte for byte the CLI\'s');
  assert.ok(plain.bytes.equals(readFileSync(out)), 'without it: the same');
  const line = spilled.result.kept.find((k) => k.includes('scratch file'));
  assert.ok(line && cli.stdout.includes(line), `the CLI and the page say so alike: ${line}`);
  assert.ok(!plain.result.kept.some((k) => k.includes('scratch file')));
  const failed = await wasmWrite(input, 'extract', { mode: 'repair' }, {}, { failReads: true });
  assert.equal(failed.result.ok, false);
  assert.match(failed.result.error, /block index could not be read back: .*the scratch file is gone \(test\)/);
});
