// The report contract (docs/report.md): the page, `logscope info --json` and the CLI's info text
// agree on size, start, end, duration and counts, for every format, in the contract's units.
// The demo files (our writers) start at 2026-01-01 00:00:00.123456789: ns beyond 2^53.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { start, openSettled, cliJson, cli, root, sample, haveSamples, haveWasm, haveCli, skipUnless } from './helpers.mjs';

let env;
before(async () => { if (haveWasm && haveCli) env = await start(); });
after(async () => { await env?.close(); });

const demo = (name) => join(root, 'web', 'gen', 'demo', name);
const CASES = [
  ['bddf', demo('spot_walk.bddf'), false],
  ['rosbag', demo('husky_outdoor.bag'), false],
  ['carla', demo('town03_intersection.log'), false],
  ['bddf', sample('bddf', 'robot_state_small.bddf'), true],
  ['bddf', sample('bddf', 'truncated_no_trailer.bddf'), true],
  ['rosbag', sample('rosbag', 'rosbagjs__example-lz4.bag'), true],
  ['rosbag', sample('rosbag', 'derived__unindexed_truncated_in_chunk2.bag'), true],
  ['carla', sample('carla', 'scenario_runner_0.9.10_DistanceBetweenVehicles.log'), true],
  ['carla', sample('carla', 'scenario_runner_0.9.13_DistanceToLaneCenter.log'), true],
];

const infoText = (path) => {
  try { return execFileSync(cli, ['info', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }); } catch (error) { return error.stdout; }
};
const seconds = (ns) => Number(BigInt(ns)) / 1e9;
const line = (text, re) => { const m = re.exec(text); assert.ok(m, `info text has ${re}:\n${text.slice(0, 600)}`); return m; };
const utcMs = (ns) => new Date(Number(BigInt(ns) / 1000000n)).toISOString().replace('T', ' ').slice(0, 23);

// What each format's own text layout says about the common facts.
const TEXT_CHECKS = {
  bddf(text, file) {
    assert.equal(Number(line(text, /^size:\s+.*\((\d+) bytes\)$/m)[1]), file.size_bytes, 'size');
    const [, first, last, span] = line(text, /^time:\s+(\S+ \S+) \.\. (\S+ \S+) \(([\d.]+) s\)$/m);
    assert.equal(first, utcMs(file.start_ns), 'start');
    assert.equal(last, utcMs(file.end_ns), 'end');
    assert.equal(span, seconds(file.duration_ns).toFixed(3), 'duration');
    const [, series, blocks] = line(text, /^series:\s+(\d+), (\d+) data blocks$/m);
    assert.deepEqual([Number(series), Number(blocks)], [file.counts.series, file.counts.data_blocks], 'counts');
  },
  rosbag(text, file) {
    // rosbag info: "start: Mar 31 2014 19:24:47.84 (1396293887.84)", sizes rounded, "messages: N".
    assert.equal(line(text, /^start:\s+.*\(([\d.]+)\)$/m)[1], seconds(file.start_ns).toFixed(2), 'start');
    assert.equal(line(text, /^end:\s+.*\(([\d.]+)\)$/m)[1], seconds(file.end_ns).toFixed(2), 'end');
    const duration = line(text, /^duration:\s+(.*)$/m)[1];
    const shown = /\((\d+)s\)$/.exec(duration)?.[1] ?? /^([\d.]+)s$/.exec(duration)?.[1];
    assert.ok(Math.abs(Number(shown) - seconds(file.duration_ns)) < 1, `duration ${duration} vs ${file.duration_ns} ns`);
    assert.equal(Number(line(text, /^messages:\s+(\d+)$/m)[1]), file.counts.messages, 'messages');
  },
  carla(text, file) {
    assert.equal(Number(line(text, /^Frames: (\d+)$/m)[1]), file.counts.frames, 'frames');
    const duration = Number(line(text, /^Duration: ([\d.e+-]+) seconds$/m)[1]);
    assert.ok(Math.abs(duration - seconds(file.duration_ns)) < 1e-3 * Math.max(1, duration), `duration ${duration} s vs ${file.duration_ns} ns`);
  },
};

for (const [family, path, needsSamples] of CASES) {
  test(`${family} ${path.split('/').pop()}: page, info --json and info text agree on the common facts`, async (t) => {
    if (skipUnless(t, { cli: true, samples: needsSamples })) return;
    if (!existsSync(path)) return t.skip(`SKIPPED: ${path} is absent (run bash scripts/build.sh for the demos)`);
    const summary = cliJson('info', '--json', path).summary;
    const file = summary.file;
    assert.equal(summary.format, family);
    assert.equal(file.size_bytes, statSync(path).size, 'size_bytes is the file size');
    if (file.start_ns !== null) {
      for (const key of ['start_ns', 'end_ns', 'duration_ns']) assert.match(file[key], /^-?\d+$/, `${key} is an exact decimal string`);
      assert.equal(BigInt(file.end_ns) - BigInt(file.start_ns), BigInt(file.duration_ns), 'duration = end - start, exactly');
      TEXT_CHECKS[family](infoText(path), file);
    }
    if (!needsSamples) assert.ok(BigInt(file.start_ns) > 2n ** 53n, 'the demo starts beyond 2^53 ns');

    const page = await env.newPage();
    await openSettled(page, path);
    const facts = await page.$$eval('#facts .fact', (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.key, { text: n.querySelector('dd').textContent, value: n.querySelector('dd').dataset.value ?? null }])));
    assert.equal(Number(facts.size_bytes.value), file.size_bytes, 'page: size');
    if (file.start_ns !== null) {
      for (const key of ['start_ns', 'end_ns', 'duration_ns']) assert.equal(facts[key].value, file[key], `page: ${key} exact`);
      // The shown UTC time carries every ns digit of the string.
      const ns = (BigInt(file.start_ns) % 1000000000n).toString().padStart(9, '0');
      assert.ok(facts.start_ns.text.includes(`.${ns} UTC`), `page start "${facts.start_ns.text}" ends in .${ns}`);
      assert.ok(facts.duration_ns.text.length > 0);
    }
    for (const [name, count] of Object.entries(file.counts)) {
      assert.ok(facts[`counts.${name}`], `page shows the count ${name}`);
      assert.equal(facts[`counts.${name}`].text.replace(/,/g, ''), String(count), `page: ${name}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the contract has no guessing left: every table column has a unit', (t) => {
  if (skipUnless(t, { cli: true })) return;
  let checked = 0;
  for (const [, path, needsSamples] of CASES) {
    if ((needsSamples && !haveSamples) || !existsSync(path)) continue;
    for (const table of cliJson('info', '--json', path).summary.tables) assert.equal(table.units.length, table.columns.length, `${path}: table ${table.name}`);
    checked++;
  }
  if (!checked) t.skip('none of its files is here (demo files not made, no ../shared/samples)');
});
