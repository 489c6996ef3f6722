// A rosbag2 database's Data tab (web/src/data-views/rosbag2.js): messages decoded by the
// definitions the bag stores, as `logscope export` decodes them, one topic at a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, cli, haveWasm, skipUnless, screenshot } from './helpers.mjs';

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
  const topic = await page.$eval('#data-channel', (select) => [...select.options].find((o) => o.textContent.startsWith('/imu '))?.value);
  await page.selectOption('#data-channel', topic);
  await page.waitForFunction(() => [...document.querySelectorAll('#data-table tbody tr:not(.detail)')].every((tr) => tr.dataset.topic === '/imu'));
  await page.locator('#data-table tbody tr').first().click();
  await page.waitForSelector('#data-table tr.detail .rv-key');
  for (let round = 0; round < 3; round++) {
    await page.evaluate(() => { for (const d of document.querySelectorAll('#data-table tr.detail details.rv-node')) d.open = true; });
    await page.waitForTimeout(100);
  }
  const detail = await page.textContent('#data-table tr.detail');
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
