// A rosbag2 database's Data tab (web/src/data-views/rosbag2.js): messages decoded by the
// definitions the bag stores, as `logscope export` decodes them, one topic at a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { start, openSettled, cli, haveWasm, skipUnless, screenshot, firstMessageDetail } from './helpers.mjs';

let env, dir, file;
before(async () => {
  if (!haveWasm) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-web-rosbag2-data-'));
  execFileSync(cli, ['make-demo-rosbag2', join(dir, 'bag'), '--size-mb', '1']);
  file = join(dir, 'bag', readdirSync(join(dir, 'bag')).find((n) => n.endsWith('.db3')));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('rosbag2 Data tab: messages decoded by the bag\'s definitions, one topic at a time', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openSettled(page, file);
  await page.click('#tab-data');
  await page.waitForSelector('#data-table tbody tr');
  const rows = await page.$$eval('#data-table tbody tr:not(.detail)', (trs) => trs.map((tr) => ({ topic: tr.dataset.topic, decoded: tr.dataset.decoded })));
  assert.equal(rows.length, 50, 'a page of 50');
  assert.deepEqual(rows.slice(0, 3).map((r) => r.topic), ['/imu', '/chatter', '/camera/compressed']);
  assert.ok(rows.every((r) => r.decoded === 'yes'), 'every message decoded');

  const imu = JSON.parse(execFileSync(cli, ['export', file, '--topic', '/imu', '--format', 'jsonl'], { encoding: 'utf8' }).split('\n')[0]);
  const detail = await firstMessageDetail(page, '/imu');
  for (const name of ['header', 'stamp', 'frame_id', 'angular_velocity', 'linear_acceleration']) assert.ok(detail.includes(name), `the decoded field ${name}`);
  assert.ok(detail.includes(imu['header.frame_id']), 'the frame id the export writes');
  await screenshot(page, 'data-rosbag2');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rosbag2 plot: a topic plots the rows logscope export writes', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openSettled(page, file);
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelector('#timeline-card')?.dataset.loaded === 'true');
  const sources = await page.$$eval('#plot-source option', (options) => options.map((o) => o.value));
  assert.deepEqual(sources.sort(), ['/camera/compressed', '/chatter', '/imu']);
  await page.selectOption('#plot-source', '/imu');
  await page.waitForFunction(() => (document.querySelector('#plot-fields-summary')?.textContent || '').length > 0, null, { timeout: 60_000 });
  await page.click('#plot-run');
  await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done' && document.querySelector('#plot-card')?.dataset.source === '/imu', null, { timeout: 120_000 });
  const shown = await page.$eval('#plot-card', (card) => ({ ...card.dataset, plot: /** @type {any} */ (card).plotData }));
  const text = execFileSync(cli, ['export', file, '--topic', '/imu', '--fields', shown.fields, '--format', 'csv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const rows = text.split('\r\n').filter(Boolean).slice(1).map((line) => line.split(','));
  assert.equal(Number(shown.count), rows.length, 'points = exported rows');
  shown.plot.columns.forEach((column, c) => rows.forEach((row, i) => assert.equal(shown.plot.values[c][i], Number(row[c + 1]), `${column} row ${i}`)));
  await screenshot(page, 'plots-rosbag2');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A bag that stores no message definitions (rosbag2 before Iron): the Data tab offers the schema
// card for ROS 2 .msg files; with the folder given, the messages decode as `logscope export
// --msg-path` decodes them, and the folder is remembered for the next bag.
test('rosbag2 Data tab: a bag without definitions decodes with a dropped .msg folder', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const python = spawnSync('/usr/bin/python3', ['-c', 'import sqlite3'], { encoding: 'utf8' });
  if (python.status !== 0) return t.skip('/usr/bin/python3 with sqlite3 is missing: no bag without definitions');
  const bare = join(dir, 'bare');
  execFileSync(cli, ['make-demo-rosbag2', bare, '--size-mb', '0.5']);
  const db = join(bare, readdirSync(bare).find((n) => n.endsWith('.db3')));
  execFileSync('/usr/bin/python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM message_definitions"); c.commit(); c.close()', db]);
  const msgs = join(dir, 'my_msgs');
  for (const [path, text] of Object.entries({
    'std_msgs/msg/Header.msg': 'builtin_interfaces/Time stamp\nstring frame_id\n',
    'builtin_interfaces/msg/Time.msg': 'int32 sec\nuint32 nanosec\n',
    'demo_msgs/msg/Imu.msg': 'std_msgs/Header header\nfloat64[3] angular_velocity\nfloat64[3] linear_acceleration\n',
    'std_msgs/msg/String.msg': 'string data\n',
    'sensor_msgs/msg/CompressedImage.msg': 'std_msgs/Header header\nstring format\nuint8[] data\n',
  })) {
    mkdirSync(dirname(join(msgs, path)), { recursive: true });
    writeFileSync(join(msgs, path), text);
  }
  const page = await env.newPage();
  await openSettled(page, db);
  await page.click('#tab-data');
  await page.waitForSelector('#schema-card[data-kind="ros2msg"][data-named="0"]');
  await page.waitForSelector('#data-table tbody tr');
  assert.ok(await page.$$eval('#data-table tbody tr:not(.detail)', (trs) => trs.every((tr) => tr.dataset.decoded !== 'yes')), 'without definitions: bytes');
  assert.match(await page.textContent('#schema-card'), /--msg-path/);
  await screenshot(page, 'data-rosbag2-no-definitions');

  await page.setInputFiles('#schema-folder', msgs);
  await page.waitForSelector('#schema-card[data-named="3"]', { timeout: 60_000 });
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#data-table tbody tr:not(.detail)')];
    return rows.length > 0 && rows.every((tr) => tr.dataset.decoded === 'yes');
  }, null, { timeout: 60_000 });
  const imu = JSON.parse(execFileSync(cli, ['export', db, '--topic', '/imu', '--format', 'jsonl', '--msg-path', msgs], { encoding: 'utf8' }).split('\n')[0]);
  const detail = await firstMessageDetail(page, '/imu');
  assert.ok(detail.includes(imu['header.frame_id']), 'the frame id logscope export --msg-path writes');
  assert.equal(await page.locator('#schema-table tbody tr').count(), 1, 'remembered');
  await screenshot(page, 'data-rosbag2-msg-folder');

  // Remembered: after a reload the bag decodes without asking.
  await page.reload();
  await openSettled(page, db);
  await page.click('#tab-data');
  await page.waitForSelector('#schema-card[data-named="3"]', { timeout: 60_000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A bag that stores MCAP (Iron and later record MCAP by default), split in two: the Data tab's
// pages run through both splits, and a topic plots every split's rows, as `logscope export` of the
// folder writes them (codec/rosbag2/mcap_folder_data.cpp).
test('rosbag2 MCAP folder: the Data tab and the plot run through both splits', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const bag = join(dir, 'mcap_bag');
  mkdirSync(bag, { recursive: true });
  const counts = [];
  for (const [k, size] of [[0, '0.3'], [1, '0.2']]) {
    execFileSync(cli, ['make-demo-rosbag2', join(dir, `part_${k}`), '--size-mb', size]);
    execFileSync(cli, ['convert', join(dir, `part_${k}`), join(bag, `run_${k}.mcap`)], { stdio: 'ignore' });
    counts.push(Number(JSON.parse(execFileSync(cli, ['info', join(bag, `run_${k}.mcap`), '--json'], { encoding: 'utf8' })).summary.file.counts.messages));
  }
  writeFileSync(join(bag, 'metadata.yaml'), `rosbag2_bagfile_information:
  version: 8
  storage_identifier: mcap
  relative_file_paths:
    - run_0.mcap
    - run_1.mcap
  message_count: ${counts[0] + counts[1]}
  ros_distro: jazzy
`);
  assert.ok(counts[0] > 0 && counts[0] < 50, 'the first page of 50 reaches into the second split');
  const page = await env.newPage();
  await page.setInputFiles('#folder-input', bag);
  await page.waitForFunction(() => document.body.dataset.fileName === 'mcap_bag' && document.body.dataset.state === 'summary', null, { timeout: 60_000 });
  await page.click('#tab-data');
  await page.waitForSelector('#data-table tbody tr');
  const rows = await page.$$eval('#data-table tbody tr:not(.detail)', (trs) => trs.map((tr) => ({ index: Number(tr.dataset.index), decoded: tr.dataset.decoded })));
  assert.equal(rows.length, Math.min(50, counts[0] + counts[1]));
  assert.deepEqual(rows.map((r) => r.index), rows.map((_, i) => i), 'indexes count through the splits');
  assert.ok(rows.every((r) => r.decoded === 'yes'), 'every message decoded');
  await screenshot(page, 'data-rosbag2-mcap-folder');

  await page.click('#tab-plots');
  await page.selectOption('#plot-source', '/imu');
  await page.waitForFunction(() => (document.querySelector('#plot-fields-summary')?.textContent || '').length > 0, null, { timeout: 60_000 });
  await page.click('#plot-run');
  await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done' && document.querySelector('#plot-card')?.dataset.source === '/imu', null, { timeout: 120_000 });
  const shown = await page.$eval('#plot-card', (card) => ({ ...card.dataset }));
  const text = execFileSync(cli, ['export', bag, '--topic', '/imu', '--fields', shown.fields, '--format', 'csv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const exported = text.split('\r\n').filter(Boolean).length - 1;
  const perSplit = [0, 1].map((k) => execFileSync(cli, ['export', join(bag, `run_${k}.mcap`), '--topic', '/imu', '--format', 'csv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    .split('\r\n').filter(Boolean).length - 1);
  assert.equal(exported, perSplit[0] + perSplit[1], 'the folder\'s export is both splits\' rows');
  assert.equal(Number(shown.count), exported, 'points = exported rows');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
