// @foxglove/ulog (a test oracle only, never in the page) against the CLI on every shared ULog sample
// and on writer-made files: per-subscription message counts, info keys and values, parameters and
// logged strings. Where @foxglove/ulog is wrong the test says so and checks the difference itself:
// - a file cut short: it stays silent and drops the partial message; logscope reports the cut
//   (ulog.file.truncated at the partial message's offset) and counts the same complete messages;
// - appended data (crash dumps): it ends the data at the first appended offset and never reads
//   the dumps; logscope reads them (hardfault_plain multi-info values);
// - default parameters ('Q'): it stores the default in place of the parameter's value; logscope
//   keeps the value and lists the defaults beside it;
// - info in the data section: it reads info only before the first subscription; logscope reads both.
// Repaired cut files are read by @foxglove/ulog with every data message logscope kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ULog } from '@foxglove/ulog';
import { FileReader } from '@foxglove/ulog/node.js';
import { runCli } from '../wasm/support.mjs';

const samplesDir = new URL('../../../shared/samples/ulog/', import.meta.url).pathname;
const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => f.endsWith('.ulg')).sort() : [];

async function foxglove(path) {
  const reader = new FileReader(path);
  await reader.open();
  const ulog = new ULog(reader);
  await ulog.open();
  const counts = ulog.dataMessageCounts();
  const subscriptions = [];
  for (const [msgId, sub] of ulog.subscriptions) subscriptions.push({ msgId, name: sub.name, multiId: sub.multiId, messages: counts.get(msgId) ?? 0 });
  const strings = [];
  for await (const m of ulog.readMessages({ includeLogs: true })) {
    if (m.type === 76 || m.type === 67) strings.push({ text: m.message, timestamp: String(m.timestamp), tag: m.tag ?? null });
  }
  await reader.close();
  return { header: ulog.header, subscriptions, strings };
}

function cli(path) {
  const info = runCli(['info', path, '--json']);
  const report = JSON.parse(info.stdout).summary;  // info --json: {path, size, detection, summary}
  const table = (name) => report.tables.find((t) => t.name === name);
  const rows = (name) => table(name).rows.map((row) => Object.fromEntries(table(name).columns.map((c, i) => [c, row[i]])));
  const query = (name, args = {}) => {
    const { status, stdout } = runCli(['query', path, name, '--args', JSON.stringify(args)]);
    assert.equal(status, 0, `query ${name} on ${path}`);
    return JSON.parse(stdout);
  };
  return { report, topics: rows('topics'), info: rows('info'), params: query('params'), messages: query('messages', { count: 10000 }), multi: query('info_multiple', { key: 'hardfault_plain' }) };
}

const text = (v) => (typeof v === 'string' ? v.replace(/\0+$/, '') : typeof v === 'bigint' ? String(v) : JSON.stringify(v));

function compare(path, fox, ours, t) {
  // Subscriptions: the same msg_ids, names, multi_ids and per-subscription counts.
  const theirs = fox.subscriptions.map((s) => `${s.msgId} ${s.name} ${s.multiId} ${s.messages}`).sort();
  const mine = ours.topics.map((s) => `${s.msg_id} ${s.topic} ${s.multi_id} ${s.messages}`).sort();
  assert.deepEqual(mine, theirs, `${path}: subscriptions and counts`);
  // Info: @foxglove/ulog keeps the definitions section's 'I' keys (and 'M' under their raw keys as arrays).
  const foxInfo = [...fox.header.information].filter(([, v]) => !Array.isArray(v)).map(([k, v]) => `${k}=${text(v)}`).sort();
  const lastByKey = new Map();
  for (const row of ours.info) if (!row.in_data_section) lastByKey.set(row.key, row.value);
  const ourInfo = [...lastByKey].map(([k, v]) => `${k}=${v}`).sort();
  assert.deepEqual(ourInfo, foxInfo, `${path}: info keys and values`);
  const dataInfo = ours.info.filter((r) => r.in_data_section).length;
  if (dataInfo) t.diagnostic(`${path}: ${dataInfo} info message(s) in the data section, which @foxglove/ulog does not read`);
  // Parameters: the same names; values equal but where a default ('Q') replaced @foxglove/ulog's value.
  const foxParams = fox.header.parameters;
  assert.deepEqual(ours.params.parameters.map((p) => p.name).sort(), [...foxParams.keys()].sort(), `${path}: parameter names`);
  let replaced = 0;
  for (const p of ours.params.parameters) {
    const f = foxParams.get(p.name);
    if (f.defaultTypes === 0) {
      assert.equal(Number(p.value), Number(f.value), `${path}: ${p.name}`);
    } else {
      // @foxglove/ulog's value is the default of the last 'Q' message: logscope lists it as a default.
      const defaults = [p.system_default, p.config_default].filter((v) => v !== undefined && v !== null).map(Number);
      assert.ok(defaults.includes(Number(f.value)), `${path}: ${p.name}: @foxglove/ulog's ${f.value} is one of logscope's defaults ${defaults}`);
      if (Number(p.value) !== Number(f.value)) ++replaced;
    }
  }
  if (replaced) t.diagnostic(`${path}: ${replaced} parameter(s) whose value @foxglove/ulog replaces by their default`);
  // Logged strings, plain and tagged (its order is by time; compared as sets of text, time and tag).
  const key = (s) => `${s.timestamp} ${s.tag} ${s.text}`;
  const ourStrings = ours.messages.messages.map((m) => key({ timestamp: String(BigInt(m.timestamp_ns) / 1000n), tag: m.tag, text: m.text })).sort();
  assert.deepEqual(ourStrings, fox.strings.map(key).sort(), `${path}: logged strings`);
}

test('every shared ULog sample agrees with @foxglove/ulog (and the stated differences hold)', async (t) => {
  if (samples.length === 0) return t.skip('../shared/samples/ulog is absent');
  for (const file of samples) {
    const path = join(samplesDir, file);
    const fox = await foxglove(path);
    const ours = cli(path);
    compare(file, fox, ours, t);
    const problems = ours.report.problems.map((p) => p.code);
    if (file.includes('b82c557')) {
      // @foxglove/ulog is silent on the cut; logscope names it where the partial message starts.
      const cut = ours.report.problems.find((p) => p.code === 'ulog.file.truncated');
      assert.ok(cut, 'the cut is reported');
      assert.equal(cut.offset, 1081257);
      // Repaired, it is a whole ULog that @foxglove/ulog reads with every complete message.
      const dir = mkdtempSync(join(tmpdir(), 'logscope-ulog-cut-'));
      try {
        const repaired = join(dir, 'repaired.ulg');
        const { status, stdout } = runCli(['repair', path, repaired]);
        assert.ok(status === 0 || status === 1, `repair exits 0 or 1\n${stdout}`);
        const fixed = await foxglove(repaired);
        const checked = cli(repaired);
        assert.deepEqual(checked.report.problems.filter((p) => p.severity === 'error'), [], 'the repaired sample: no error');
        assert.ok(!checked.report.problems.some((p) => p.code === 'ulog.file.truncated'), 'the repaired sample is not cut');
        compare(`${file} repaired`, fixed, checked, t);
        assert.equal(checked.report.file.counts.messages, ours.report.file.counts.messages, 'every complete data message kept');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      assert.ok(!problems.includes('ulog.file.truncated'), `${file}: not cut`);
    }
    if (file.includes('appended')) {
      // @foxglove/ulog never reads the appended crash dumps; logscope reads all three.
      assert.equal(ours.multi.values.length, 3);
      assert.ok(ours.multi.values.every((v) => typeof v === 'string' && v.length > 1000));
      assert.ok(![...fox.header.information.keys()].some((k) => k.includes('hardfault')), '@foxglove/ulog has no crash dump');
    }
  }
});

test('writer-made files, whole, cut and repaired, agree with @foxglove/ulog', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-ulog-'));
  try {
    const demo = join(dir, 'demo.ulg');
    assert.equal(runCli(['make-demo-ulog', demo, '--size-mb', '0.4']).status, 0);
    compare('demo', await foxglove(demo), cli(demo), t);
    const bytes = readFileSync(demo);
    for (const fraction of [0.31, 0.62, 0.97]) {
      const cut = join(dir, `cut${fraction}.ulg`);
      // A cut exactly between two messages leaves a complete ULog (it has no end marker): of two
      // neighbouring cut points at most one is such a boundary (a message is at least 3 bytes).
      let ours;
      for (const nudge of [0, 1]) {
        writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * fraction) + nudge));
        ours = cli(cut);
        if (ours.report.problems.some((p) => p.code === 'ulog.file.truncated')) break;
      }
      assert.ok(ours.report.problems.some((p) => p.code === 'ulog.file.truncated'), `cut ${fraction}: reported`);
      const fox = await foxglove(cut);  // silent, with the same complete messages
      compare(`cut ${fraction}`, fox, ours, t);
      const repaired = `${cut}.repaired.ulg`;
      const { status, stdout } = runCli(['repair', cut, repaired]);
      // 1: the repaired file still holds what the log itself says (a dropout is a warning).
      assert.ok(status === 0 || status === 1, `cut ${fraction}: repair exits 0 or 1\n${stdout}`);
      const fixed = await foxglove(repaired);
      const checked = cli(repaired);
      assert.deepEqual(checked.report.problems.filter((p) => p.severity === 'error'), [], `repaired ${fraction}: no error`);
      compare(`repaired ${fraction}`, fixed, checked, t);
      const kept = fixed.subscriptions.reduce((n, s) => n + s.messages, 0);
      assert.equal(kept, ours.report.file.counts.messages, `repaired ${fraction}: every data message kept`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
