// What `logscope repair` and `logscope extract` write is read by @mcap/core's McapIndexedReader
// (through the summary and the chunk indexes, every CRC checked) with the same messages logscope
// lists, and those are the original's: the damaged files are make-demo-mcap files cut, with a
// flipped byte, or with "\r\n" turned into "\n". tests/codec/test_mcap_repair.cpp checks against
// the writer's ledger that every complete message is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexedView, logscopeView, runCli, streamView } from './mcap-support.mjs';

const key = (m) => `${m.channel} ${m.sequence} ${m.log_time} ${m.publish_time} ${m.sha1}`;

function damaged(bytes) {
  const cut = (fraction) => bytes.subarray(0, Math.floor(bytes.length * fraction));
  const flip = (fraction) => {
    const copy = Buffer.from(bytes);
    copy[Math.floor(copy.length * fraction)] ^= 0x10;
    return copy;
  };
  const lf = [];
  for (let i = 0; i < bytes.length; ++i) if (!(bytes[i] === 0x0d && bytes[i + 1] === 0x0a)) lf.push(bytes[i]);
  return { 'cut 30%': cut(0.3), 'cut 61%': cut(0.61), 'cut 97%': cut(0.97), 'flip 40%': flip(0.4), 'flip 75%': flip(0.75), crlf: Buffer.from(lf) };
}

test('repair of damaged make-demo-mcap files (zstd, lz4, none): McapIndexedReader reads the output, with the original messages logscope lists', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-repair-'));
  try {
    for (const compression of ['zstd', 'lz4', 'none']) {
      const original = join(dir, `${compression}.mcap`);
      assert.equal(runCli(['make-demo-mcap', original, '--size-mb', '0.5', '--compression', compression, '--chunk-kb', '32']).status, 0);
      const originalKeys = new Set((await streamView(original)).messages.map(key));
      for (const [name, bytes] of Object.entries(damaged(readFileSync(original)))) {
        const input = join(dir, `${compression}-${name.replace(/\W/g, '')}.mcap`);
        const output = `${input}.repaired.mcap`;
        writeFileSync(input, bytes);
        const { status, stdout } = runCli(['repair', input, output]);
        assert.equal(status, 0, `${compression} ${name}: repair exits 0 (the written file checks clean)\n${stdout}`);
        const indexed = await indexedView(output);
        const ours = logscopeView(output);
        assert.ok(indexed.chunkIndexes > 0, `${compression} ${name}: chunk indexes`);
        assert.deepEqual(indexed.messages, ours.messages, `${compression} ${name}: McapIndexedReader and logscope list the same messages`);
        for (const m of indexed.messages) assert.ok(originalKeys.has(key(m)), `${compression} ${name}: ${key(m)} is an original message`);
        assert.deepEqual(indexed.metadata, ours.metadata);
        assert.deepEqual(indexed.attachments, ours.attachments);
        t.diagnostic(`${compression} ${name}: ${indexed.messages.length} of ${originalKeys.size} messages kept`);
        if (name === 'cut 97%' || name.startsWith('flip')) assert.ok(indexed.messages.length > originalKeys.size / 2, `${compression} ${name}: most messages kept`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('extract of chosen channels in a time range: McapIndexedReader reads exactly the original messages selected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-extract-'));
  try {
    const original = join(dir, 'in.mcap');
    assert.equal(runCli(['make-demo-mcap', original, '--size-mb', '0.5', '--compression', 'lz4', '--chunk-kb', '32']).status, 0);
    const all = (await streamView(original)).messages;
    const start = all.reduce((min, m) => (BigInt(m.log_time) < min ? BigInt(m.log_time) : min), BigInt(all[0].log_time));
    const [t0, t1] = [start + 1000000000n, start + 2000000000n];
    const output = join(dir, 'out.mcap');
    const { status, stdout } = runCli(['extract', original, output, '--topics', '/imu,3', '--from', '+1', '--to', '+2', '--compression', 'zstd']);
    assert.equal(status, 0, stdout);
    const want = all.filter((m) => (m.channel === 0 || m.channel === 3) && BigInt(m.log_time) >= t0 && BigInt(m.log_time) <= t1);
    assert.ok(want.length > 50);
    const indexed = await indexedView(output);
    assert.deepEqual(indexed.messages, want);
    assert.deepEqual(logscopeView(output).messages, want);
    assert.deepEqual([...new Set(indexed.channels.map((c) => c.topic))].sort(), ['/imu', '/rosout']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
