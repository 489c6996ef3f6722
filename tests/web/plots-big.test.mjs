// A ≥ 1 GB generated bag in the Timeline & plots tab (only with LOGSCOPE_BIG=1: it generates the
// file and reads all of it twice, in the browser and with the CLI): the timeline reads nothing,
// and plotting a field of its busiest topic shows a chart whose point count is the number of
// messages in range, as `logscope export` counts them, for the whole topic and a brushed range.
// The times are printed (no timed assertions).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openFile, waitOpened, cli, cliJson, shots, haveWasm, haveCli, skipUnless, brushTimeline } from './helpers.mjs';

const BIG = process.env.LOGSCOPE_BIG === '1';
const SIZE_MB = Number(process.env.LOGSCOPE_BIG_MB || 1100);
let env, dir, path;

before(async () => {
  if (!BIG || !haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-plots-big-'));
  path = join(dir, 'big_plot_lz4.bag');
  const t0 = Date.now();
  execFileSync(cli, ['make-demo-rosbag', path, '--size-mb', String(SIZE_MB), '--compression', 'lz4'], { stdio: 'ignore' });
  console.log(`# generated a ${SIZE_MB} MB lz4 bag in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  env = await start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const seconds = (ns) => `${ns.slice(0, -9)}.${ns.slice(-9)}`;

// Rows `logscope export` writes (the header not counted), streamed through wc so nothing big is held.
function exportCount(topic, fields, t0 = null, t1 = null) {
  const range = t0 ? ` --from ${seconds(t0)} --to ${seconds(t1)}` : '';
  const run = spawnSync('sh', ['-c', `"${cli}" export "${path}" --topic "${topic}" --fields "${fields}"${range} 2>/dev/null | wc -l`], { encoding: 'utf8' });
  return Number(run.stdout.trim()) - 1;
}

const plotted = (page, t0) => page.waitForFunction((want) => {
  const card = document.querySelector('#plot-card');
  return card?.dataset.state === 'done' && (!want || card.dataset.t0Ns === want);
}, t0, { timeout: 1_200_000, polling: 500 });

test('plotting a field of a 1 GB bag\'s topic shows a chart whose point count matches the messages in range', { timeout: 3_600_000 }, async (t) => {
  if (!BIG) return t.skip('SKIPPED: set LOGSCOPE_BIG=1 to generate a 1 GB bag and plot it');
  if (skipUnless(t, { cli: true })) return;
  const size = statSync(path).size;
  assert.ok(size >= 1e9, `the generated file is ≥ 1 GB (${size})`);
  const info = cliJson('info', '--json', path).summary;
  const page = await env.newPage();
  await openFile(page, path);
  assert.equal(await waitOpened(page, 'big_plot_lz4.bag'), 'summary');
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelector('#timeline-card')?.dataset.loaded === 'true', null, { timeout: 120_000 });
  const rows = await page.$$eval('#timeline-labels li', (lis) => lis.map((li) => [li.dataset.name, Number(li.dataset.total)]));
  assert.deepEqual(rows, info.tables.find((x) => x.name === 'topics').rows.map((r) => [r[0], r[2]]));
  const [before, after] = await page.evaluate(async () => {
    const client = window.logscope.state.client;
    const first = await client.call('readStats');
    await client.call('query', { name: 'timeline', args: { bins: 400 } });
    return [first, await client.call('readStats')];
  });
  assert.equal(after.bytes_read - before.bytes_read, 0, 'the timeline reads nothing');
  console.log(`# ${(size / 1e9).toFixed(2)} GB bag: the view worker read ${after.bytes_read} bytes (${(100 * after.bytes_read / size).toFixed(4)} %) for the summary and the timeline`);

  // Big files wait for the Plot button: the busiest topic, its default fields.
  await page.waitForFunction(() => document.querySelectorAll('#plot-field-list input:checked').length > 0);
  const topic = await page.$eval('#plot-source', (s) => s.value);
  // Cancel first: the job stops, the card says so, and the next plot runs.
  await page.click('#plot-run');
  await page.waitForFunction(() => Number(document.querySelector('#progress')?.dataset.done) > 0, null, { timeout: 120_000 });
  await page.click('#progress button:has-text("Cancel")');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#plot-note').textContent));
  let t0 = Date.now();
  await page.click('#plot-run');
  await page.waitForFunction(() => Number(document.querySelector('#progress')?.dataset.done) > 0, null, { timeout: 120_000 });
  await page.screenshot({ path: join(shots, 'plots-big-progress.png') });
  await plotted(page);
  let card = await page.$eval('#plot-card', (c) => ({ ...c.dataset }));
  const expected = info.tables.find((x) => x.name === 'topics').rows.find((r) => r[0] === topic)[2];
  // A big file's plot is a sample of its chunks, one per pixel column, when it has more; then
  // "Read every message" reads them all.
  if (card.sampled) {
    const [read, of] = card.sampled.split('/').map(Number);
    assert.ok(read < of, card.sampled);
    assert.ok(Number(card.count) < expected, `a sample of ${card.sampled} chunks holds fewer points than the topic`);
    assert.match(await page.textContent('#plot-count'), /points read \(a sample\)/);
    await page.screenshot({ path: join(shots, 'plots-big-sampled.png') });
    console.log(`# sampled plot: ${card.sampled} chunks, ${Number(card.count).toLocaleString('en-US')} points in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    t0 = Date.now();
    await page.click('#plot-every');
    await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done' && !document.querySelector('#plot-card')?.dataset.sampled, null, { timeout: 1_200_000, polling: 500 });
    card = await page.$eval('#plot-card', (c) => ({ ...c.dataset }));
  }
  const wholeMs = Date.now() - t0;
  assert.equal(card.mode, 'buckets', 'hundreds of thousands of points come as min/max buckets');
  assert.equal(Number(card.count), expected, 'the count is every message of the topic');
  t0 = Date.now();
  const exported = exportCount(topic, card.fields);
  const cliMs = Date.now() - t0;
  assert.equal(Number(card.count), exported, 'and the rows logscope export writes');
  assert.match(await page.textContent('#plot-count'), new RegExp(`^${expected.toLocaleString('en-US')} points in range`));
  await page.locator('#plot-card').screenshot({ path: join(shots, 'plots-big-plot.png') });
  console.log(`# plot of ${topic} (${card.fields}): ${Number(card.count).toLocaleString('en-US')} points in ${(wholeMs / 1000).toFixed(1)} s in the page (${(size / 1e6 / (wholeMs / 1000)).toFixed(0)} MB/s); logscope export counted the same rows in ${(cliMs / 1000).toFixed(1)} s`);

  // A brushed range: 40 % .. 45 % of the timeline, only its chunks read.
  const { t0: from, t1: to } = await brushTimeline(page, 0.4, 0.45);
  t0 = Date.now();
  await plotted(page, from);
  const rangeMs = Date.now() - t0;
  card = await page.$eval('#plot-card', (c) => ({ ...c.dataset }));
  assert.equal(card.t1Ns, to);
  const inRange = exportCount(topic, card.fields, from, to);
  assert.ok(inRange > 0);
  assert.equal(Number(card.count), inRange, 'points in the brushed range = exported rows in it');
  await page.locator('#plot-card').screenshot({ path: join(shots, 'plots-big-range.png') });
  console.log(`# brushed range (5 % of the log): ${inRange.toLocaleString('en-US')} points (${card.mode}) in ${(rangeMs / 1000).toFixed(1)} s`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
