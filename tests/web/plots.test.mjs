// The Timeline & plots tab against the CLI, on the writer-made demo files: the timeline counts
// what the index holds and reads nothing to do so; a plot's point count is the number of rows
// `logscope export` writes for the same topic and range, and its values are the export's; a
// brushed range reaches the plot and the Data tab's messages; the CARLA map draws every vehicle of
// `logscope actors`. Screenshots of each card, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { start, openSettled, cliJson, cli, demo, sample, shots, haveWasm, skipUnless, brushTimeline } from './helpers.mjs';

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

const skip = (t) => skipUnless(t, { cli: true, demos: true });

// "1700000000123456789" -> "1700000000.123456789": the export's absolute seconds, exact.
const seconds = (ns) => `${ns.slice(0, -9) || '0'}.${ns.slice(-9).padStart(9, '0')}`;

// The export's rows (header dropped) for a source and an inclusive ns range.
function exportRows(path, source, fields, t0, t1) {
  const args = ['export', path, ...source, '--fields', fields, '--format', 'csv'];
  if (t0) args.push('--from', seconds(t0), '--to', seconds(t1));
  const text = execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  return text.split('\r\n').filter(Boolean).slice(1).map((line) => line.split(','));
}

// A picture of one card (test-results/screenshots/NAME.png).
const cardShot = (page, selector, name) => page.locator(selector).screenshot({ path: join(shots, `${name}.png`) });

async function openPlots(page, path) {
  await openSettled(page, path);
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelector('#timeline-card')?.dataset.loaded === 'true');
}

const plotDone = (page, { t0 = null } = {}) => page.waitForFunction((want) => {
  const card = document.querySelector('#plot-card');
  return card?.dataset.state === 'done' && (!want || card.dataset.t0Ns === want);
}, t0, { timeout: 120_000 });

const cardData = (page) => page.$eval('#plot-card', (card) => ({ ...card.dataset, plot: card.plotData, shown: document.querySelector('#plot-count').dataset.count }));

// Every plotted value against the export's cells: the same doubles (or gaps for empty cells).
function assertValues(plot, rows) {
  assert.equal(plot.values[0].length, rows.length);
  plot.columns.forEach((column, c) => {
    rows.forEach((row, i) => {
      const cell = row[c + 1];
      const expected = cell === '' || !Number.isFinite(Number(cell)) ? null : cell === 'true' ? 1 : cell === 'false' ? 0 : Number(cell);
      if (plot.values[c][i] !== expected) assert.fail(`${column} row ${i}: plotted ${plot.values[c][i]}, exported ${cell}`);
    });
  });
}

test('timeline: one row per topic, series or frame kind with the index counts, read from memory', async (t) => {
  if (skip(t)) return;
  for (const [name, scheme] of [['husky_outdoor.bag', 'light'], ['spot_walk.bddf', 'dark'], ['town03_intersection.log', 'light']]) {
    const path = demo(name);
    const info = cliJson('info', '--json', path).summary;
    const page = await env.newPage({ colorScheme: scheme });
    await openPlots(page, path);
    const rows = await page.$$eval('#timeline-labels li', (lis) => lis.map((li) => [li.dataset.name, Number(li.dataset.total)]));
    if (info.format === 'rosbag') {
      const topics = info.tables.find((x) => x.name === 'topics').rows;
      assert.deepEqual(rows, topics.map((r) => [r[0], r[2]]));
    } else if (info.format === 'bddf') {
      const series = info.tables.find((x) => x.name === 'series');
      const at = (c) => series.columns.indexOf(c);
      assert.deepEqual(rows, series.rows.map((r) => [r[at('channel')], r[at('blocks')]]));
    } else {
      assert.deepEqual(rows[0], ['frames', info.file.counts.frames]);
    }
    // The timeline query reads nothing: the view worker answers it from the index in memory
    // (its requests run in order, so the stats around it count only its reads).
    const [before, answer, after] = await page.evaluate(async () => {
      const client = window.logscope.state.client;
      return [await client.call('readStats'), await client.call('query', { name: 'timeline', args: { bins: 300 } }), await client.call('readStats')];
    });
    assert.equal(answer.rows.length, rows.length);
    assert.equal(after.bytes_read - before.bytes_read, 0, `${name}: the timeline read ${after.bytes_read - before.bytes_read} bytes`);
    assert.equal(after.reader_bytes - before.reader_bytes, 0);
    await cardShot(page, '#timeline-card', `plots-timeline-${name}-${scheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('bag: the plot holds the rows logscope export writes, for the whole topic and a brushed range', async (t) => {
  if (skip(t)) return;
  const path = demo('husky_outdoor.bag');
  const page = await env.newPage();
  await openPlots(page, path);
  await plotDone(page);
  let shown = await cardData(page);
  const fields = shown.fields;
  let rows = exportRows(path, ['--topic', shown.source], fields);
  assert.equal(Number(shown.count), rows.length, 'points in range = exported rows');
  assert.equal(Number(shown.shown), rows.length, 'the count on screen');
  assert.match(await page.textContent('#plot-count'), new RegExp(`^${rows.length.toLocaleString('en-US')} points in range`));
  assertValues(shown.plot, rows);

  // Brush 30 % .. 60 % of the timeline: the plot asks again for exactly that range.
  const { t0, t1 } = await brushTimeline(page, 0.3, 0.6);
  assert.ok(t0 && t1 && BigInt(t1) > BigInt(t0), 'a range is selected');
  await plotDone(page, { t0 });
  shown = await cardData(page);
  assert.equal(shown.t1Ns, t1);
  rows = exportRows(path, ['--topic', shown.source], fields, t0, t1);
  assert.ok(rows.length > 0, 'the range holds messages');
  assert.equal(Number(shown.count), rows.length, 'points in the brushed range = exported rows in it');
  assertValues(shown.plot, rows);
  await cardShot(page, '#plot-card', 'plots-plot-bag-range-light');
  await cardShot(page, '#timeline-card', 'plots-timeline-bag-range-light');

  // Zooming in keeps counting exactly: the points in view are the plotted times inside it.
  await page.focus('#plot-canvas');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  const view = await page.evaluate(() => {
    const c = document.querySelector('#plot-canvas');
    return { x0: Number(c.dataset.x0), x1: Number(c.dataset.x1), shown: Number(document.querySelector('#plot-count').dataset.count) };
  });
  const origin = BigInt(cliJson('info', '--json', path).summary.file.start_ns);
  const base = Number(BigInt(t0) - origin) / 1e9;
  const inView = shown.plot.t.filter((ns) => base + ns / 1e9 >= view.x0 && base + ns / 1e9 <= view.x1 + 1e-12).length;
  assert.equal(view.shown, inView);
  assert.ok(inView < rows.length);

  // The canvases follow the theme switch (their colours come from the CSS variables).
  const pictures = () => page.evaluate(() => ['#plot-canvas', '#timeline-canvas', '#timeline-axis'].map((s) => document.querySelector(s).toDataURL()));
  const light = await pictures();
  await page.selectOption('#theme-select', 'dark');
  await page.waitForFunction((before) => document.querySelector('#plot-canvas').toDataURL() !== before, light[0]);
  const dark = await pictures();
  light.forEach((picture, i) => assert.notEqual(dark[i], picture, `canvas ${i} redrawn in the dark theme`));
  await cardShot(page, '#plot-card', 'plots-plot-bag-range-dark');
  await cardShot(page, '#timeline-card', 'plots-timeline-bag-range-dark');
  await page.selectOption('#theme-select', 'system');

  // The Data tab's messages follow the range.
  await page.click('#tab-data');
  await page.waitForSelector('#data-table tbody tr');
  assert.match(await page.textContent('#data-time-range'), /timeline/);
  const times = await page.$$eval('#data-table tbody tr:not(.detail)', (trs) => trs.map((tr) => tr.dataset.timeNs));
  assert.ok(times.length > 0 && times.every((x) => BigInt(x) >= BigInt(t0) && BigInt(x) <= BigInt(t1)), 'every message lies in the range');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('BDDF and CARLA: the plot is the export of the series or actor; the map draws every vehicle', async (t) => {
  if (skip(t)) return;
  for (const scheme of ['light', 'dark']) {
    const bddf = demo('spot_walk.bddf');
    let page = await env.newPage({ colorScheme: scheme });
    await openPlots(page, bddf);
    await plotDone(page);
    let shown = await cardData(page);
    let rows = exportRows(bddf, ['--series', shown.source], shown.fields);
    assert.equal(Number(shown.count), rows.length);
    assertValues(shown.plot, rows);
    await cardShot(page, '#plot-card', `plots-plot-bddf-${scheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();

    const log = demo('town03_intersection.log');
    const actors = cliJson('actors', log, '--json').actors;
    const vehicles = actors.filter((a) => a.type === 'vehicle').length;
    assert.ok(vehicles > 10, 'the demo log has many vehicles');
    page = await env.newPage({ colorScheme: scheme, viewport: { width: 1440, height: 1500 } });  // the whole map card in its picture
    await openPlots(page, log);
    await page.waitForFunction(() => document.querySelector('#map-card')?.dataset.loaded === 'true', null, { timeout: 120_000 });
    const map = await page.$eval('#map-card', (card) => ({ ...card.dataset }));
    assert.equal(Number(map.drawnVehicle), vehicles, 'every vehicle life is drawn');
    assert.equal(Number(map.vehicles), vehicles);
    assert.equal(Number(map.drawnWalker), actors.filter((a) => a.type === 'walker').length);
    assert.equal(await page.getAttribute('#actor-map-legend [data-type="vehicle"]', 'data-count'), String(vehicles));
    // The slider shows another frame's positions, read from that frame.
    await page.$eval('#map-frame', (s) => { s.value = String(Math.floor(Number(s.max) / 2)); s.dispatchEvent(new Event('input')); });
    await page.waitForFunction(() => Number(document.querySelector('#map-card').dataset.frame) > 0);
    assert.match(await page.textContent('#map-frame-text'), /^frame \d+ · \+\d+\.\d\d s · \d+ actors$/);
    await cardShot(page, '#map-card', `plots-map-carla-${scheme}`);
    await plotDone(page);
    shown = await cardData(page);
    rows = exportRows(log, ['--actor', shown.source], shown.fields);
    assert.equal(Number(shown.count), rows.length);
    assertValues(shown.plot, rows);
    await cardShot(page, '#plot-card', `plots-plot-carla-${scheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('real files: bag plots count and carry the export\'s rows, CARLA maps draw every vehicle (skipped without ../shared/samples)', async (t) => {
  if (skipUnless(t, { cli: true, samples: true })) return;
  const bags = ['rosbag/real/cra-ros-pkg__robot_localization__test1.bag', 'rosbag/gt_hrl__joints_2010-08-17-19-51-09.bag', 'rosbag/rosbagjs__example-bz2.bag', 'rosbag/embag__test.bag'];
  for (const name of bags) {
    const path = sample(...name.split('/'));
    const info = cliJson('info', '--json', path).summary;
    const page = await env.newPage();
    await openPlots(page, path);
    const rows = await page.$$eval('#timeline-labels li', (lis) => lis.map((li) => [li.dataset.name, Number(li.dataset.total)]));
    assert.deepEqual(rows, info.tables.find((x) => x.name === 'topics').rows.map((r) => [r[0], r[2]]), name);
    await plotDone(page);
    const shown = await cardData(page);
    const exported = exportRows(path, ['--topic', shown.source], shown.fields);
    assert.equal(Number(shown.count), exported.length, `${name} ${shown.source}`);
    if (shown.mode === 'points') assertValues(shown.plot, exported);
    console.log(`# ${name}: ${shown.source} (${shown.fields}): ${shown.count} points = exported rows`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  for (const name of ['scenario_runner_0.9.10_DistanceToLaneCenter.log', 'scenario_runner_0.9.13_DistanceBetweenVehicles.log']) {
    const path = sample('carla', name);
    const actors = cliJson('actors', path, '--json').actors;
    const page = await env.newPage();
    await openPlots(page, path);
    await page.waitForFunction(() => document.querySelector('#map-card')?.dataset.loaded === 'true', null, { timeout: 120_000 });
    const map = await page.$eval('#map-card', (card) => ({ ...card.dataset }));
    assert.equal(Number(map.drawnVehicle), actors.filter((a) => a.type === 'vehicle').length, name);
    assert.equal(Number(map.drawnTrafficLight), actors.filter((a) => a.type === 'traffic_light').length, name);
    await plotDone(page);
    const shown = await cardData(page);
    assert.equal(Number(shown.count), exportRows(path, ['--actor', shown.source], shown.fields).length, name);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
