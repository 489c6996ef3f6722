// MCAP with CDR channels in the page (a file `logscope make-demo-cdr` writes): the Data tab lists
// the messages decoded by their channel's encodings, as `logscope export` decodes them, with the
// reason where a message stays bytes or does not fit; the plots of a CDR topic and a json one hold
// the rows the export writes. Screenshots of both.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, cli, haveWasm, skipUnless, screenshot, firstMessageDetail } from './helpers.mjs';

let env, dir, file;
before(async () => {
  if (!haveWasm) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-web-cdr-'));
  file = join(dir, 'ros2_cdr.mcap');
  execFileSync(cli, ['make-demo-cdr', file, '--messages', '60']);
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const skip = (t) => skipUnless(t, { cli: true });

function exportRows(topic, fields) {
  const text = execFileSync(cli, ['export', file, '--topic', topic, '--fields', fields, '--format', 'csv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return text.split('\r\n').filter(Boolean).slice(1).map((line) => line.split(','));
}

test('MCAP Data tab: messages decoded by their channel, the reason where they are not', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openSettled(page, file);
  await page.click('#tab-data');
  await page.waitForSelector('#data-table tbody tr');
  const rows = await page.$$eval('#data-table tbody tr:not(.detail)', (trs) => trs.map((tr) => ({ topic: tr.dataset.topic, decoded: tr.dataset.decoded })));
  assert.equal(rows.length, 50, 'a page of 50');
  assert.deepEqual(rows.slice(0, 7).map((r) => r.topic), ['/imu', '/scan', '/pose', '/all_kinds', '/mismatch', '/legacy', '/status']);
  assert.deepEqual(rows.slice(0, 7).map((r) => r.decoded), ['yes', 'yes', 'yes', 'yes', 'error', 'yes', 'yes']);

  // One channel: the /imu messages, the first expanded shows the fields the export writes.
  const imu = JSON.parse(execFileSync(cli, ['export', file, '--topic', '/imu', '--format', 'jsonl'], { encoding: 'utf8' }).split('\n')[0]);
  const detail = await firstMessageDetail(page, '/imu');
  for (const name of ['header', 'stamp', 'nanosec', 'frame_id', 'orientation', 'orientation_covariance', 'linear_acceleration']) assert.ok(detail.includes(name), `the decoded field ${name}`);
  assert.ok(detail.includes(imu['header.frame_id']), 'the frame id');
  // The record view shows numbers rounded (9.86 for 9.860000000000001).
  const shown = await page.$$eval('#data-table tr.detail .rv-val', (vals) => vals.map((v) => Number(v.title || v.textContent)));
  const z = imu['linear_acceleration.z'];
  assert.ok(shown.some((v) => Math.abs(v - z) <= 1e-9 * Math.abs(z)), `linear_acceleration.z ${z} in ${shown.join(' ')}`);
  await screenshot(page, 'data-mcap-cdr');

  // The channel whose definition does not fit: its row says why.
  const mismatch = await page.$eval('#data-channel', (select) => [...select.options].find((o) => o.textContent.startsWith('/mismatch '))?.value);
  await page.selectOption('#data-channel', mismatch);
  await page.waitForFunction(() => document.querySelector('#data-table tbody tr')?.dataset.topic === '/mismatch');
  const why = await page.getAttribute('#data-table tbody tr:first-child td.tone-warn', 'title');
  assert.match(why, /field 'b'/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('MCAP plot: a CDR topic plots the rows logscope export writes', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openSettled(page, file);
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelector('#timeline-card')?.dataset.loaded === 'true');
  const sources = await page.$$eval('#plot-source option', (options) => options.map((o) => o.value));
  assert.deepEqual(sources.sort(), ['/all_kinds', '/imu', '/legacy', '/mismatch', '/pose', '/scan', '/status'], 'the topics whose encodings give columns (/status is json)');
  await page.selectOption('#plot-source', '/pose');
  // The default fields of a pose: its position.
  await page.waitForFunction(() => document.querySelector('#plot-fields-summary')?.textContent.includes('pose.position'), null, { timeout: 60_000 });
  await page.click('#plot-run');
  await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done' && document.querySelector('#plot-card')?.dataset.source === '/pose', null, { timeout: 120_000 });
  const shown = await page.$eval('#plot-card', (card) => ({ ...card.dataset, plot: card.plotData }));
  const rows = exportRows('/pose', shown.fields);
  assert.equal(Number(shown.count), rows.length, 'points = exported rows');
  assert.equal(rows.length, 60);
  shown.plot.columns.forEach((column, c) => rows.forEach((row, i) => assert.equal(shown.plot.values[c][i], Number(row[c + 1]), `${column} row ${i}`)));
  await screenshot(page, 'plots-mcap-cdr');

  // A json topic: its columns are its messages' (codec/mcap/payload.cpp), plotted as exported.
  await page.selectOption('#plot-source', '/status');
  await page.waitForFunction(() => [...document.querySelectorAll('#plot-fields input[type=checkbox]')].map((i) => i.value).sort().join() === 'n,ok', null, { timeout: 60_000 });
  await page.click('#plot-fields-summary');
  const boxes = await page.$$eval('#plot-fields input[type=checkbox]', (inputs) => inputs.map((i) => ({ name: i.value, checked: i.checked })));
  assert.deepEqual(boxes.map((b) => b.name).sort(), ['n', 'ok'], 'its number and bool members');
  for (const b of boxes) if (b.checked !== (b.name === 'n')) await page.click(`#plot-fields input[value="${b.name}"]`);
  await page.click('#plot-fields-summary');
  await page.click('#plot-run');
  await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done' && document.querySelector('#plot-card')?.dataset.source === '/status', null, { timeout: 120_000 });
  const json = await page.$eval('#plot-card', (card) => ({ ...card.dataset, plot: card.plotData }));
  const statusRows = exportRows('/status', 'n');
  assert.equal(statusRows.length, 60);
  assert.deepEqual(json.plot.columns, ['n']);
  assert.deepEqual(json.plot.values[0], statusRows.map((row) => Number(row[1])));
  await screenshot(page, 'plots-mcap-json');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
