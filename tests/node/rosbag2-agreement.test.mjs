// logscope's rosbag2 decoding and convert against independent readers. Message bytes come from
// Python's standard sqlite3 (Debian's /usr/bin/python3, zstd frames through python3-zstandard) on
// a COPY of each database in a temporary folder (opening one in place would checkpoint its -wal).
// - Export: for every topic with a definition (the bag's message_definitions), each row of
//   `logscope export BAG --topic T --format jsonl` has the leaf paths and values that
//   @foxglove/rosmsg2-serialization decodes (the definition parsed by @foxglove/rosmsg, ros2 mode).
// - Convert: `logscope convert BAG OUT.mcap`, read by @mcap/core (CRCs checked, @mcap/support
//   decompression), holds the same messages (topic, log time, SHA1 of the bytes), with each
//   channel's schema the bag's definition, or the .msg folder given, or none.
// Real bags from ../shared/samples/rosbag2 (skipped when absent) and bags logscope's writer makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { loadDecompressHandlers } from '@mcap/support';
import { parse as parseDefinition } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { cliPath, samplesDir } from '../wasm/support.mjs';
import { parseExact, flatten, same } from './cdr-support.mjs';

const bagSamples = join(process.env.LOGSCOPE_SAMPLES || samplesDir, 'rosbag2');
const sha1 = (bytes) => createHash('sha1').update(bytes).digest('hex');

function cli(args) {
  const r = spawnSync(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, TZ: 'UTC' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Reads every database of `bag` (a folder) from a copy: topics, definitions and messages.
const READER = `
import base64, glob, json, os, shutil, sqlite3, sys, tempfile
import zstandard
src = sys.argv[1]
tmp = tempfile.mkdtemp()
try:
    for name in os.listdir(src):
        shutil.copy(os.path.join(src, name), tmp)
    out = {"topics": [], "definitions": {}, "messages": []}
    for path in sorted(glob.glob(os.path.join(tmp, "*.db3"))) or sorted(glob.glob(os.path.join(tmp, "*.bag"))):
        db = sqlite3.connect(path)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        topics = {}
        for tid, name, kind in db.execute("SELECT id, name, type FROM topics"):
            topics[tid] = name
            out["topics"].append({"name": name, "type": kind})
        if "message_definitions" in tables:
            for kind, enc, text in db.execute("SELECT topic_type, encoding, encoded_message_definition FROM message_definitions"):
                if text: out["definitions"][kind] = {"encoding": enc, "text": text}
        for tid, t, data in db.execute("SELECT topic_id, timestamp, data FROM messages ORDER BY id"):
            data = bytes(data)
            if data[:4] == b"\\x28\\xb5\\x2f\\xfd":
                data = zstandard.ZstdDecompressor().decompressobj().decompress(data)
            out["messages"].append({"topic": topics.get(tid, ""), "time": str(t), "data": base64.b64encode(data).decode()})
        db.close()
    print(json.dumps(out))
finally:
    shutil.rmtree(tmp)
`;

function readBag(dir) {
  const r = spawnSync('/usr/bin/python3', ['-c', READER, dir], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, `python3 reading ${dir}: ${r.stderr}`);
  const bag = JSON.parse(r.stdout);
  for (const m of bag.messages) m.data = Buffer.from(m.data, 'base64');
  return bag;
}

const havePython = () => spawnSync('/usr/bin/python3', ['-c', 'import sqlite3, zstandard']).status === 0;

// The type of each topic name (first seen) and its ros2msg definition, if the bag stores one.
function topicTypes(bag) {
  const types = new Map();
  for (const t of bag.topics) if (!types.has(t.name)) types.set(t.name, t.type);
  return types;
}

// Export of every topic against rosmsg2 (with `extra` CLI flags, `definitions` by type instead of
// the bag's); returns lines for the diagnostics.
function assertExportAgreement(dir, bag, extra = [], definitions = bag.definitions) {
  const summary = [];
  for (const [topic, type] of topicTypes(bag)) {
    const definition = definitions[type];
    const run = cli(['export', dir, '--topic', topic, '--format', 'jsonl', ...extra]);
    const where = `${dir} ${topic}`;
    if (!definition || definition.encoding !== 'ros2msg') {
      assert.notEqual(run.status, 0, `${where}: no definition, yet logscope exported it`);
      assert.ok(run.stderr.includes(topic), `${where}: the refusal names the topic: ${run.stderr}`);
      summary.push(`${topic}: no definition, refused`);
      continue;
    }
    const reader = new MessageReader(parseDefinition(definition.text, { ros2: true }));
    const expected = [];
    for (const m of bag.messages.filter((x) => x.topic === topic)) {
      const decoded = reader.readMessage(m.data);
      assert.ok(m.data.byteLength - reader.lastReadByteLength() <= 3, `${where}: rosmsg2 leaves bytes over`);
      expected.push(flatten(decoded, '', new Map()));
    }
    assert.equal(run.status, 0, `${where}: ${run.stderr}`);
    const ours = run.stdout.split('\n').filter(Boolean).map(parseExact);
    assert.equal(ours.length, expected.length, `${where}: rows`);
    let numeric = 0;
    for (let r = 0; r < ours.length; r++) {
      const { time_ns: time, ...fields } = ours[r];
      const got = flatten(fields, '', new Map());
      const want = expected[r];
      assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), `${where} row ${r}: the leaf paths`);
      for (const [key, value] of want) {
        assert.ok(same(got.get(key), value), `${where} row ${r} ${key}: logscope ${JSON.stringify(got.get(key))}, rosmsg2 ${String(value)}`);
        if (typeof value === 'number' || typeof value === 'bigint') numeric++;
      }
      assert.equal(time.num, bag.messages.filter((x) => x.topic === topic)[r].time, `${where} row ${r}: time_ns`);
    }
    summary.push(`${topic}: ${ours.length} rows, ${numeric} numeric leaves`);
  }
  return summary;
}

let handlers = null;
async function readMcap(path) {
  handlers ??= await loadDecompressHandlers();
  const reader = new McapStreamReader({ decompressHandlers: handlers, validateCrcs: true });
  reader.append(readFileSync(path));
  const schemas = new Map(), channels = new Map(), messages = [];
  let footer = false;
  for (let record; (record = reader.nextRecord()); ) {
    if (record.type === 'Schema') schemas.set(record.id, record);
    else if (record.type === 'Channel') channels.set(record.id, record);
    else if (record.type === 'Message') messages.push(record);
    else if (record.type === 'Footer') footer = true;
  }
  assert.ok(reader.done() && footer, `${path}: @mcap/core reads to the end`);
  return { schemas, channels, messages };
}

const key = (m) => `${m.topic} ${m.time.padStart(20, '0')} ${m.sha1}`;

// Converts `dir` (with `extra` CLI flags) and compares the MCAP's messages with the bag's; checks
// that every channel with a schema decodes its messages with rosmsg2. Returns the MCAP read.
async function assertConvert(dir, bag, out, extra = []) {
  const run = cli(['convert', dir, out, ...extra]);
  assert.equal(run.status, 0, `convert ${dir}: ${run.stdout} ${run.stderr}`);
  assert.equal(cli(['check', out]).status, 0, `logscope check ${out}`);
  const file = await readMcap(out);
  const ours = file.messages.map((m) => ({ topic: file.channels.get(m.channelId).topic, time: String(m.logTime), sha1: sha1(m.data) }));
  const theirs = bag.messages.map((m) => ({ topic: m.topic, time: m.time, sha1: sha1(m.data) }));
  assert.deepEqual(ours.map(key).sort(), theirs.map(key).sort(), `${dir}: the converted messages`);
  for (const channel of file.channels.values()) {
    assert.equal(channel.messageEncoding, 'cdr');
    if (channel.schemaId === 0) continue;
    const schema = file.schemas.get(channel.schemaId);
    const reader = new MessageReader(parseDefinition(new TextDecoder().decode(schema.data), { ros2: true }));
    for (const m of file.messages.filter((x) => x.channelId === channel.id)) {
      reader.readMessage(m.data);
      assert.ok(m.data.byteLength - reader.lastReadByteLength() <= 3, `${out} ${channel.topic}: the schema leaves bytes over`);
    }
  }
  return file;
}

// The definitions of a converted MCAP's channels, by type: what export with the same flags must match.
function schemaDefinitions(file) {
  const out = {};
  for (const s of file.schemas.values()) out[s.name] = { encoding: s.encoding, text: new TextDecoder().decode(s.data) };
  return out;
}

function sampleBags() {
  if (!existsSync(bagSamples)) return [];
  return readdirSync(bagSamples).map((n) => join(bagSamples, n)).filter((p) => statSync(p).isDirectory());
}

// A bag logscope's writer makes; `definitions` false removes them (as Humble records none).
function demoBag(dir, definitions) {
  assert.equal(cli(['make-demo-rosbag2', dir, '--size-mb', '0.5']).status, 0);
  if (!definitions) {
    const db = readdirSync(dir).find((n) => n.endsWith('.db3'));
    const r = spawnSync('/usr/bin/python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM message_definitions"); c.commit(); c.close()', join(dir, db)]);
    assert.equal(r.status, 0, String(r.stderr));
  }
  return dir;
}

function writeMsgFolder(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const HEADER = { 'std_msgs/msg/Header.msg': 'builtin_interfaces/Time stamp\nstring frame_id\n', 'builtin_interfaces/msg/Time.msg': 'int32 sec\nuint32 nanosec\n' };

test('rosbag2 export: every topic with a definition equals @foxglove/rosmsg2-serialization (samples and writer-made bags)', async (t) => {
  if (!havePython()) return t.skip('/usr/bin/python3 with sqlite3 and zstandard is missing');
  const dir = mkdtempSync(join(tmpdir(), 'logscope-r2-export-'));
  try {
    const bags = [demoBag(join(dir, 'demo'), true), ...sampleBags()];
    let compared = 0;
    for (const path of bags) {
      const bag = readBag(path);
      if (!Object.keys(bag.definitions).length && path !== bags[0]) continue;  // nothing to compare: no definitions
      for (const line of assertExportAgreement(path, bag)) {
        t.diagnostic(`${path.split('/').pop()} ${line}`);
        if (line.includes('rows')) compared++;
      }
    }
    assert.ok(compared >= 3, `topics compared: ${compared}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rosbag2 convert: @mcap/core reads the same messages from the converted MCAPs', async (t) => {
  if (!havePython()) return t.skip('/usr/bin/python3 with sqlite3 and zstandard is missing');
  const dir = mkdtempSync(join(tmpdir(), 'logscope-r2-convert-'));
  try {
    // Writer-made: with definitions (schemas), without (schema id 0), and without plus a .msg folder.
    const withDefs = demoBag(join(dir, 'iron'), true);
    for (const compression of ['zstd', 'lz4', 'none']) {
      const file = await assertConvert(withDefs, readBag(withDefs), join(dir, `iron-${compression}.mcap`), ['--compression', compression]);
      assert.equal(file.schemas.size, 3);
    }
    const bare = demoBag(join(dir, 'humble'), false);
    const bareBag = readBag(bare);
    const schemaless = await assertConvert(bare, bareBag, join(dir, 'humble.mcap'));
    assert.ok([...schemaless.channels.values()].every((c) => c.schemaId === 0));
    const msgs = writeMsgFolder(join(dir, 'demo-msgs'), {
      ...HEADER,
      'demo_msgs/msg/Imu.msg': 'std_msgs/Header header\nfloat64[3] angular_velocity\nfloat64[3] linear_acceleration\n',
      'std_msgs/msg/String.msg': 'string data\n',
      'sensor_msgs/msg/CompressedImage.msg': 'std_msgs/Header header\nstring format\nuint8[] data\n',
    });
    const given = await assertConvert(bare, bareBag, join(dir, 'humble-given.mcap'), ['--msg-path', msgs]);
    assert.equal(given.schemas.size, 3);
    // --definitions-from another log: the bag with definitions, and an MCAP converted from it.
    const ironSchemas = schemaDefinitions(await readMcap(join(dir, 'iron-zstd.mcap')));
    for (const source of [withDefs, join(dir, 'iron-zstd.mcap')]) {
      const from = await assertConvert(bare, bareBag, join(dir, 'humble-from.mcap'), ['--definitions-from', source]);
      assert.deepEqual(schemaDefinitions(from), ironSchemas, `--definitions-from ${source}: the schemas of the bag with definitions`);
    }
    assert.notEqual(cli(['convert', bare, join(dir, 'x.mcap'), '--definitions-from', join(dir, 'no-such-file')]).status, 0);
    // A ROS 1 bag's definitions: used where the layout is ROS 2's (geometry_msgs/Twist), refused
    // where ROS 1's Header (with seq) differs (sensor_msgs/CompressedImage).
    const ros1 = join(dir, 'ros1.bag');
    assert.equal(cli(['make-demo-rosbag', ros1, '--size-mb', '1']).status, 0);
    const twists = [[1, 2, 3, 4, 5, 6], [0.5, -1.25, 1e300, -2, 7, 8.125]];
    const db = join(bare, readdirSync(bare).find((n) => n.endsWith('.db3')));
    const insert = `import sqlite3, struct, sys
c = sqlite3.connect(sys.argv[1])
cur = c.execute("INSERT INTO topics(name, type, serialization_format, offered_qos_profiles, type_description_hash) VALUES('/cmd_vel', 'geometry_msgs/msg/Twist', 'cdr', '', '')")
for i, v in enumerate(${JSON.stringify(twists)}):
    c.execute("INSERT INTO messages(topic_id, timestamp, data) VALUES(?, ?, ?)", (cur.lastrowid, 1700000001000000000 + i, b"\\x00\\x01\\x00\\x00" + struct.pack("<6d", *v)))
c.commit()`;
    const added = spawnSync('/usr/bin/python3', ['-c', insert, db], { encoding: 'utf8' });
    assert.equal(added.status, 0, added.stderr);
    const twist = cli(['export', bare, '--topic', '/cmd_vel', '--format', 'jsonl', '--definitions-from', ros1]);
    assert.equal(twist.status, 0, twist.stderr);
    const rows = twist.stdout.split('\n').filter(Boolean).map(parseExact);
    assert.deepEqual(rows.map((r) => ['linear', 'angular'].flatMap((k) => ['x', 'y', 'z'].map((a) => Number(r[`${k}.${a}`].num)))), twists);
    const image = cli(['export', bare, '--topic', '/camera/compressed', '--definitions-from', ros1]);
    assert.notEqual(image.status, 0);
    assert.match(image.stderr, /ROS 1's, whose std_msgs\/Header \(with seq\)/);
    // The same .msg folder for export: rosmsg2 decodes by the schemas convert wrote from it.
    for (const line of assertExportAgreement(bare, bareBag, ['--msg-path', msgs], schemaDefinitions(given))) t.diagnostic(`humble --msg-path ${line}`);

    // The samples: every readable bag; the Humble one (no definitions) with a .msg folder.
    const samples = sampleBags();
    if (!samples.length) return t.skip(`${bagSamples} is absent: writer-made bags only`);
    let converted = 0;
    for (const path of samples) {
      const bag = readBag(path);
      if (!bag.topics.length) continue;  // a whole-file zstd bag: nothing Python can read either
      const name = path.split('/').pop();
      const extra = name.startsWith('IrinaTerebiznik__') ? ['--msg-path', writeMsgFolder(join(dir, 'sensor-msgs'), {
        ...HEADER,
        'sensor_msgs/msg/MagneticField.msg': 'std_msgs/Header header\ngeometry_msgs/Vector3 magnetic_field\nfloat64[9] magnetic_field_covariance\n',
        'sensor_msgs/msg/Temperature.msg': 'std_msgs/Header header\nfloat64 temperature\nfloat64 variance\n',
        'geometry_msgs/msg/Vector3.msg': 'float64 x\nfloat64 y\nfloat64 z\n',
      })] : [];
      const file = await assertConvert(path, bag, join(dir, `${name}.mcap`), extra);
      if (extra.length) {
        assert.equal(file.schemas.size, 2, `${name}: both types get the supplied schema`);
        for (const line of assertExportAgreement(path, bag, extra, schemaDefinitions(file))) t.diagnostic(`${name} --msg-path ${line}`);
      }
      t.diagnostic(`${name}: ${file.messages.length} messages, ${file.schemas.size} schemas, ${file.channels.size} channels`);
      converted++;
    }
    assert.ok(converted >= 6, `sample bags converted: ${converted}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
