// logscope's CDR decoder against @foxglove/rosmsg2-serialization: for every CDR channel of the real
// MCAP samples (skipped when ../shared is absent) and of files `logscope make-demo-cdr` writes,
// each message is read with @mcap/core, its definition parsed by @foxglove/rosmsg (ros2 mode) and
// decoded by MessageReader, flattened to leaf paths (`header.stamp.sec`, `ranges[3]`,
// `path[0].x`), and compared with the rows `logscope export --topic T --format jsonl` writes:
// the same rows, the same set of paths and every value (numbers exactly: int64/uint64 as
// BigInt, float32 through Math.fround; text and booleans too). Where the oracle cannot read a
// definition or a message, logscope must leave it out with a problem naming the topic; a
// definition stored empty is refused by name, asking for --msg-path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { loadDecompressHandlers } from '@mcap/support';
import { parse as parseDefinition } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { cliPath, samplesDir } from '../wasm/support.mjs';
import { parseExact, flatten, same } from './cdr-support.mjs';

const mcapSamples = join(samplesDir, 'mcap');
const MAGIC = Buffer.from([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);

function isMcap(path) {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(8);
  const got = readSync(fd, head, 0, 8, 0);
  closeSync(fd);
  return got === 8 && head.equals(MAGIC);
}

function cli(args) {
  const r = spawnSync(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, TZ: 'UTC' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let handlers = null;
async function readMcap(path) {
  handlers ??= await loadDecompressHandlers();
  const reader = new McapStreamReader({ decompressHandlers: handlers, validateCrcs: true });
  reader.append(readFileSync(path));
  const schemas = new Map(), channels = new Map(), messages = [];
  for (let record; (record = reader.nextRecord()); ) {
    if (record.type === 'Schema' && !schemas.has(record.id)) schemas.set(record.id, record);
    else if (record.type === 'Channel' && !channels.has(record.id)) channels.set(record.id, record);
    else if (record.type === 'Message') messages.push(record);
  }
  return { schemas, channels, messages };
}

// The oracle's rows of one topic: {rows: [Map path -> value] per message it decodes, failed: count}
// or {refused: why} when it cannot read the definition.
function oracleRows(file, topic) {
  const channelIds = [...file.channels.values()].filter((c) => c.topic === topic).map((c) => c.id);
  const channel = file.channels.get(channelIds[0]);
  const schema = file.schemas.get(channel.schemaId);
  let reader;
  try {
    if (!schema || schema.encoding !== 'ros2msg') throw new Error(`schema encoding ${schema?.encoding}`);
    reader = new MessageReader(parseDefinition(new TextDecoder().decode(schema.data), { ros2: true }));
  } catch (error) {
    return { refused: error.message };
  }
  const rows = [];
  let failed = 0;
  for (const m of file.messages) {
    if (!channelIds.includes(m.channelId)) continue;
    try {
      const decoded = reader.readMessage(m.data);
      // More than the trailing padding left over: the definition does not match the bytes.
      if (m.data.byteLength - reader.lastReadByteLength() > 3) throw new Error('trailing bytes');
      rows.push(flatten(decoded, '', new Map()));
    } catch {
      failed++;
    }
  }
  return { rows, failed, emptyDefinition: schema.data.byteLength === 0 };
}

// Compares every CDR topic of `path`; returns what it compared for the diagnostics.
async function assertAgreement(path) {
  const file = await readMcap(path);
  const topics = [...new Set([...file.channels.values()].filter((c) => c.messageEncoding === 'cdr').map((c) => c.topic))].sort();
  const summary = [];
  for (const topic of topics) {
    const expected = oracleRows(file, topic);
    const run = cli(['export', path, '--topic', topic, '--format', 'jsonl']);
    const where = `${path} ${topic}`;
    if (expected.refused) {
      assert.notEqual(run.status, 0, `${where}: the oracle cannot read the definition (${expected.refused}); logscope exported it`);
      assert.ok(run.stderr.includes(topic), `${where}: the refusal names the topic: ${run.stderr}`);
      summary.push(`${topic}: refused by both`);
      continue;
    }
    // A schema stored with no text (a recorder that lost the definition): the oracle reads it as
    // a type without fields and fails every message; logscope names the empty definition and asks
    // for it (--msg-path), exporting nothing rather than rows of nothing.
    if (expected.emptyDefinition) {
      assert.equal(expected.rows.length, 0, `${where}: the oracle decodes no message of an empty definition`);
      assert.notEqual(run.status, 0, `${where}: an empty stored definition is refused`);
      assert.ok(run.stderr.includes(topic) && /empty definition/.test(run.stderr) && run.stderr.includes('--msg-path'),
        `${where}: the refusal names the topic, the empty definition and --msg-path: ${run.stderr}`);
      summary.push(`${topic}: an empty stored definition, ${expected.failed} messages decoded by neither`);
      continue;
    }
    const ours = run.stdout.split('\n').filter(Boolean).map(parseExact);
    assert.equal(ours.length, expected.rows.length, `${where}: rows (the oracle decodes ${expected.rows.length}, fails ${expected.failed}): ${run.stderr}`);
    if (expected.failed > 0) {
      assert.equal(run.status, 1, `${where}: messages left out are problems`);
      assert.ok(run.stderr.includes(`message of ${topic}`), `${where}: the problems name the topic: ${run.stderr}`);
    }
    let leaves = 0, numeric = 0;
    for (let r = 0; r < ours.length; r++) {
      const { time_ns: _, ...fields } = ours[r];
      const got = flatten(fields, '', new Map());
      const want = expected.rows[r];
      assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), `${where} row ${r}: the leaf paths`);
      for (const [key, value] of want) {
        assert.ok(same(got.get(key), value), `${where} row ${r} ${key}: logscope ${JSON.stringify(got.get(key))}, rosmsg2 ${String(value)}`);
        leaves++;
        if (typeof value === 'number' || typeof value === 'bigint') numeric++;
      }
    }
    summary.push(`${topic}: ${ours.length} rows, ${leaves} leaves (${numeric} numeric)${expected.failed ? `, ${expected.failed} left out by both` : ''}`);
  }
  return summary;
}

test('every CDR channel of the real MCAP samples: logscope export equals @foxglove/rosmsg2-serialization', async (t) => {
  if (!existsSync(mcapSamples)) return t.skip(`${mcapSamples} is absent`);
  const files = readdirSync(mcapSamples).filter((n) => n.endsWith('.mcap')).map((n) => join(mcapSamples, n)).filter(isMcap);
  let compared = 0;
  for (const path of files) {
    const summary = await assertAgreement(path);
    compared += summary.length;
    for (const line of summary) t.diagnostic(`${path.split('/').pop()} ${line}`);
  }
  assert.ok(compared >= 10, `CDR topics compared: ${compared}`);
});

test('make-demo-cdr files (every field kind, XCDR1/XCDR2, both byte orders, zstd/lz4/none): logscope export equals rosmsg2', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-cdr-'));
  try {
    for (const compression of ['zstd', 'lz4', 'none']) {
      const path = join(dir, `demo-${compression}.mcap`);
      assert.equal(cli(['make-demo-cdr', path, '--messages', '24', '--compression', compression]).status, 0);
      const summary = await assertAgreement(path);
      for (const line of summary) t.diagnostic(`${compression} ${line}`);
      assert.ok(summary.some((line) => line.startsWith('/all_kinds: 24 rows')), summary.join('; '));
      assert.ok(summary.some((line) => line.startsWith('/mismatch: 0 rows') && line.includes('24 left out by both')), summary.join('; '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
