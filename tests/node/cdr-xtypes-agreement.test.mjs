// logscope's delimited and parameter-list CDR (D_CDR2, PL_CDR2, XCDR1's PL_CDR; docs/cdr.md)
// against @foxglove/cdr, an independent implementation of the XTypes headers:
// @foxglove/rosmsg2-serialization's MessageReader reads none of them, so the oracle here is
// @foxglove/cdr itself. Its CdrWriter writes each message (DHEADERs, EMHEADERs with length codes
// 0-4, parameter headers with the sentinel), @mcap/core's McapWriter puts them in an MCAP with
// a ros2msg schema, its CdrReader reads the values back following the same headers, and
// `logscope export --format jsonl` must give every one of them. (@foxglove/cdr takes the NEXTINT
// of length codes 5-7 for a word of its own, which XTypes 7.4.3.4.2 says is the member's first
// word, so those codes are only in tests/codec/test_cdr.cpp.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CdrReader, CdrWriter, EncapsulationKind } from '@foxglove/cdr';
import { McapWriter } from '@mcap/core';
import { cliPath } from '../wasm/support.mjs';

const SEP = '='.repeat(80);
const DEFINITION = `uint8 a\nfloat64 d\nint32[] seq\nstring s\ndemo_msgs/Inner inner\ndemo_msgs/Inner[] list\nstring[] names\n${SEP}\nMSG: demo_msgs/Inner\nuint16 x\nfloat32 y\n`;

// Member ids are the declaration order (docs/cdr.md); the kinds say how structs are framed.
const framing = (kind) => ({
  [EncapsulationKind.DELIMITED_CDR2_LE]: 'delimited', [EncapsulationKind.DELIMITED_CDR2_BE]: 'delimited', [EncapsulationKind.RTPS_DELIMITED_CDR2_LE]: 'delimited',
  [EncapsulationKind.PL_CDR2_LE]: 'mutable2', [EncapsulationKind.PL_CDR2_BE]: 'mutable2', [EncapsulationKind.RTPS_PL_CDR2_LE]: 'mutable2',
  [EncapsulationKind.PL_CDR_LE]: 'mutable1', [EncapsulationKind.PL_CDR_BE]: 'mutable1',
})[kind];

// The bytes `write(w)` puts after a 4-aligned start, measured on a scratch writer of the same kind.
function sizeOf(kind, write) {
  const scratch = new CdrWriter({ kind });
  write(scratch);
  return scratch.size - 4;
}

// A struct: its members [write(w)] in declaration order, framed as the kind says. PL_CDR2 puts
// the members in reverse order (ids say which is which).
function struct(w, kind, members) {
  const how = framing(kind);
  const body = (x) => {
    if (how === 'delimited') for (const m of members) m(x);
    else if (how === 'mutable2') {
      for (let id = members.length - 1; id >= 0; id--) {
        const size = sizeOf(kind, members[id]);
        x.emHeader(id === 0, id, size); // length code 0-3 for 1, 2, 4, 8 bytes, else 4 (a NEXTINT)
        members[id](x);
      }
    } else {
      members.forEach((m, id) => { x.emHeader(id === 1, id, sizeOf(kind, m)); m(x); });
      x.sentinelHeader();
    }
  };
  if (how !== 'mutable1') w.dHeader(sizeOf(kind, body));
  body(w);
}

// XCDR2 frames a collection of strings or structs with a DHEADER (rules 9 and 12).
function collection(w, kind, items, writeItem) {
  const body = (x) => { x.sequenceLength(items.length); for (const item of items) writeItem(x, item); };
  if (framing(kind) !== 'mutable1') w.dHeader(sizeOf(kind, body));
  body(w);
}

const inner = (kind, v) => (w) => struct(w, kind, [(x) => x.uint16(v.x), (x) => x.float32(v.y)]);

function writeMessage(kind, v) {
  const w = new CdrWriter({ kind });
  struct(w, kind, [
    (x) => x.uint8(v.a),
    (x) => x.float64(v.d),
    (x) => x.int32Array(v.seq, true),
    (x) => x.string(v.s),
    inner(kind, v.inner),
    (x) => collection(x, kind, v.list, (y, item) => inner(kind, item)(y)),
    (x) => collection(x, kind, v.names, (y, name) => y.string(name)),
  ]);
  return w.data;
}

// The oracle: @foxglove/cdr's reader, following the headers as they come.
function readStruct(r, how, readers) {
  const out = {};
  if (how === 'delimited') {
    r.dHeader();
    for (const [name, read] of readers) out[name] = read(r);
  } else if (how === 'mutable2') {
    const end = r.dHeader() + r.decodedBytes;
    while (r.decodedBytes < end) {
      const { id } = r.emHeader();
      out[readers[id][0]] = readers[id][1](r);
    }
  } else {
    for (;;) {
      const header = r.emHeader();
      if (header.readSentinelHeader) break;
      out[readers[header.id][0]] = readers[header.id][1](r);
    }
  }
  return out;
}

function readMessage(bytes) {
  const r = new CdrReader(bytes);
  const how = framing(r.kind);
  const readInner = (x) => readStruct(x, how, [['x', (y) => y.uint16()], ['y', (y) => y.float32()]]);
  const readCollection = (x, item) => {
    if (how !== 'mutable1') x.dHeader();
    const n = x.sequenceLength();
    return Array.from({ length: n }, () => item(x));
  };
  return readStruct(r, how, [
    ['a', (x) => x.uint8()], ['d', (x) => x.float64()], ['seq', (x) => [...x.int32Array()]], ['s', (x) => x.string()],
    ['inner', readInner], ['list', (x) => readCollection(x, readInner)], ['names', (x) => readCollection(x, (y) => y.string())],
  ]);
}

const value = (i) => ({
  a: i % 256, d: i * 0.25 - 3, seq: Array.from({ length: i % 4 }, (_, k) => k * 1000 - i), s: `msg ${i}`,
  inner: { x: 100 + i, y: Math.fround(i / 3) }, list: Array.from({ length: i % 3 }, (_, k) => ({ x: k, y: Math.fround(k + 0.5) })),
  names: Array.from({ length: (i + 1) % 3 }, (_, k) => `n${i}.${k}`),
});

const KINDS = ['DELIMITED_CDR2_LE', 'DELIMITED_CDR2_BE', 'RTPS_DELIMITED_CDR2_LE', 'PL_CDR2_LE', 'PL_CDR2_BE', 'RTPS_PL_CDR2_LE', 'PL_CDR_LE', 'PL_CDR_BE'];

async function writeMcap(path, messages) {
  const parts = [];
  let position = 0n;
  const writable = { position: () => position, write: async (data) => { parts.push(data.slice()); position += BigInt(data.byteLength); } };
  const writer = new McapWriter({ writable });
  await writer.start({ profile: 'ros2', library: 'cdr-xtypes-agreement.test.mjs' });
  const schemaId = await writer.registerSchema({ name: 'demo_msgs/msg/Xtypes', encoding: 'ros2msg', data: new TextEncoder().encode(DEFINITION) });
  const channels = {};
  for (const kind of KINDS) channels[kind] = await writer.registerChannel({ topic: `/${kind.toLowerCase()}`, schemaId, messageEncoding: 'cdr', metadata: new Map() });
  let t = 1_700_000_000_000_000_000n;
  for (const { kind, bytes, i } of messages) {
    t += 1_000_000n;
    await writer.addMessage({ channelId: channels[kind], sequence: i, logTime: t, publishTime: t, data: bytes });
  }
  await writer.end();
  writeFileSync(path, Buffer.concat(parts));
}

// A leaf of the oracle's value against logscope's JSON Lines cell (arrays of structs and
// collections are JSON cells in the export, docs/export.md).
function sameValue(ours, theirs) {
  if (Array.isArray(theirs) || (theirs && typeof theirs === 'object')) return isDeepStrictEqual(ours, theirs); // keys in any order
  if (typeof theirs === 'number') return ours === theirs || Math.fround(ours) === theirs;
  return ours === theirs;
}

test('D_CDR2, PL_CDR2 and PL_CDR written by @foxglove/cdr: logscope export gives every value its CdrReader reads back', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-xtypes-'));
  try {
    const messages = [];
    for (const kind of KINDS)
      for (let i = 0; i < 12; i++) messages.push({ kind, i, bytes: writeMessage(EncapsulationKind[kind], value(i)) });
    const path = join(dir, 'xtypes.mcap');
    await writeMcap(path, messages);
    let leaves = 0;
    for (const kind of KINDS) {
      const topic = `/${kind.toLowerCase()}`;
      const run = spawnSync(cliPath, ['export', path, '--topic', topic, '--format', 'jsonl'], { encoding: 'utf8' });
      assert.equal(run.status, 0, `${topic}: ${run.stderr}`);
      const rows = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
      const mine = messages.filter((m) => m.kind === kind);
      assert.equal(rows.length, mine.length, `${topic}: rows`);
      for (let r = 0; r < rows.length; r++) {
        const expected = readMessage(mine[r].bytes);
        assert.deepEqual(expected, { ...value(mine[r].i), seq: value(mine[r].i).seq }, `${topic} row ${r}: the oracle reads back what it wrote`);
        const flat = { a: expected.a, d: expected.d, seq: expected.seq, s: expected.s, 'inner.x': expected.inner.x, 'inner.y': expected.inner.y, list: expected.list, names: expected.names };
        for (const [key, want] of Object.entries(flat)) {
          assert.ok(sameValue(rows[r][key], want), `${topic} row ${r} ${key}: logscope ${JSON.stringify(rows[r][key])}, @foxglove/cdr ${JSON.stringify(want)}`);
          leaves++;
        }
      }
      t.diagnostic(`${topic}: ${rows.length} rows agree`);
    }
    assert.equal(leaves, KINDS.length * 12 * 8);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
