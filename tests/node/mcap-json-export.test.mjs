// `logscope export --format jsonl` of MCAP json channels against @mcap/core: every message the
// stream reader gives, parsed with JSON.parse and flattened here by docs/mcap.md's rule (members
// by dotted path, elements as [i], arrays over 64 elements as one JSON value, null as no value),
// is the export's row of the same log time, in file order. The real samples with json channels
// (skipped without ../shared) and make-demo-mcap's /imu and /odom.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { loadDecompressHandlers } from '@mcap/support';
import { samplesDir } from '../wasm/support.mjs';
import { isMcap, runCli } from './mcap-support.mjs';

const mcapSamples = join(samplesDir, 'mcap');
const ARRAY_COLUMNS = 64;
const MAX_DEPTH = 32;

function flatten(value, path, out, depth = 0) {
  if (value === null) return;
  if (typeof value !== 'object') {
    out[path || 'value'] = value;
    return;
  }
  if (depth >= MAX_DEPTH || (Array.isArray(value) && value.length > ARRAY_COLUMNS)) {
    out[path || 'value'] = value;
    return;
  }
  if (Array.isArray(value)) value.forEach((element, i) => flatten(element, `${path || 'value'}[${i}]`, out, depth + 1));
  else for (const [name, member] of Object.entries(value)) flatten(member, path ? `${path}.${name}` : name, out, depth + 1);
}

// Per json topic, @mcap/core's messages in file order: {time_ns, ...flattened}.
async function expectedRows(path) {
  const reader = new McapStreamReader({ decompressHandlers: await loadDecompressHandlers(), validateCrcs: true });
  reader.append(readFileSync(path));
  const channels = new Map();
  const byTopic = new Map();
  for (let record; (record = reader.nextRecord()); ) {
    if (record.type === 'Channel') channels.set(record.id, record);
    if (record.type !== 'Message') continue;
    const channel = channels.get(record.channelId);
    if (channel?.messageEncoding !== 'json') continue;
    const row = { time_ns: String(record.logTime) };
    flatten(JSON.parse(new TextDecoder().decode(record.data)), '', row);
    if (!byTopic.has(channel.topic)) byTopic.set(channel.topic, []);
    byTopic.get(channel.topic).push(row);
  }
  return byTopic;
}

// The export's rows, time_ns as its exact text and empty cells dropped.
function exportedRows(path, topic, dir) {
  const out = join(dir, 'rows.jsonl');
  const { status } = runCli(['export', path, '--topic', topic, '--format', 'jsonl', '-o', out]);
  assert.equal(status, 0, `logscope export ${path} --topic ${topic}`);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => {
    const row = JSON.parse(line);
    row.time_ns = /^\{"time_ns":(\d+),?/.exec(line)[1];
    for (const [name, value] of Object.entries(row)) if (value === null) delete row[name];
    return row;
  });
}

async function assertJsonExport(t, path, dir) {
  const expected = await expectedRows(path);
  for (const [topic, rows] of expected) {
    // Topics with one schema only (a second type on a topic is left out: the doctests cover it).
    const got = exportedRows(path, topic, dir);
    assert.equal(got.length, rows.length, `${path} ${topic}: rows`);
    for (let i = 0; i < rows.length; ++i) assert.deepEqual(got[i], rows[i], `${path} ${topic}: row ${i}`);
    t.diagnostic(`${path.split('/').pop()} ${topic}: ${rows.length} rows, ${Object.keys(rows[0] ?? {}).length - 1} columns in the first`);
  }
  return expected.size;
}

test('make-demo-mcap\'s json channels: the export equals @mcap/core\'s messages, flattened', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-json-'));
  try {
    const file = join(dir, 'demo.mcap');
    assert.equal(runCli(['make-demo-mcap', file, '--size-mb', '1']).status, 0);
    assert.equal(await assertJsonExport(t, file, dir), 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every real MCAP sample\'s json channels: the export equals @mcap/core\'s messages, flattened', async (t) => {
  if (!existsSync(mcapSamples)) return t.skip(`${mcapSamples} is absent`);
  const dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-json-'));
  try {
    let topics = 0;
    for (const name of readdirSync(mcapSamples).filter((n) => n.endsWith('.mcap'))) {
      const path = join(mcapSamples, name);
      if (isMcap(path)) topics += await assertJsonExport(t, path, dir);
    }
    assert.ok(topics >= 6, `json topics in the samples: ${topics}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
