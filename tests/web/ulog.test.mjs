// A PX4 ULog in the page (web/src/data-views/ulog.js), against the CLI: the Overview's vehicle,
// flight duration and logged errors and warnings (the summary's facts), the Data tab's parameters,
// logged messages and GPS track, a plot; screenshots of each. A writer-made flight always, and the
// real flights of ../shared/samples/ulog with a GPS track when present.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { start, openFile, waitOpened, screenshot, sample, cli, cliJson, haveWasm, haveSamples, skipUnless } from './helpers.mjs';

let env, dir;
before(async () => {
  if (!haveWasm) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-ulog-'));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const fact = (summary, key) => summary.facts.find((f) => f.key === key)?.value;

async function checkFlight(t, path, shotName) {
  const summary = cliJson('info', '--json', path).summary;
  const params = cliJson('query', path, 'params');
  const messages = cliJson('query', path, 'messages', '--args', '{"count": 10000}');
  const gps = cliJson('query', path, 'gps_track');
  const page = await env.newPage();
  await openFile(page, path);
  assert.equal(await waitOpened(page, basename(path)), 'summary');
  // The Overview: the vehicle, the flight's duration, the logged errors and warnings.
  for (const key of ['sys_name', 'ver_hw', 'ver_sw', 'flight_duration', 'logged_errors', 'logged_warnings']) {
    const want = fact(summary, key);
    if (want === undefined) continue;
    // A number carries its value in data-value (summary.js factItem); a text is the text shown.
    const shown = typeof want === 'number' ? await page.getAttribute(`#facts [data-key="${key}"] dd`, 'data-value') : (await page.textContent(`#facts [data-key="${key}"] dd`)).trim();
    assert.equal(String(shown), String(want), `the Overview's ${key}`);
  }
  await screenshot(page, `ulog-overview-${shotName}`);
  // The Data tab: the parameters, the logged messages and the GPS track, as the CLI's queries.
  await page.click('#tab-data');
  await page.waitForFunction(() => (document.querySelector('#panel-data')?.dataset.loaded || '').split(' ').includes('ulog'), null, { timeout: 120_000 });
  assert.equal(await page.locator('#data-params tbody tr').count(), params.parameters.length);
  assert.equal(await page.locator('#data-params tbody tr.changed').count(), params.parameters.filter((p) => p.changed_from_default).length);
  assert.equal(await page.locator('#data-logged tbody tr').count(), messages.messages.length);
  const texts = await page.$$eval('#data-logged tbody tr', (rows) => rows.map((r) => r.cells[2].textContent));
  assert.deepEqual(texts, messages.messages.map((m) => m.text));
  const points = await page.getAttribute('#data-gps', 'data-points');
  assert.equal(Number(points), gps.kept, 'the track has every fix the query gives');
  if (gps.kept) {
    assert.equal(await page.locator('#gps-canvas').count(), 1);
    // The canvas is drawn: some pixels differ from the background.
    const inked = await page.$eval('#gps-canvas', (c) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) n += data[i] > 0;
      return n;
    });
    assert.ok(inked > 500, `the track is drawn (${inked} pixels)`);
    await page.locator('#data-gps').scrollIntoViewIfNeeded();
  } else {
    assert.match(await page.textContent('#gps-note'), /nothing to draw|none with a position/);
  }
  await screenshot(page, `ulog-data-${shotName}`);
  await page.locator('#data-logged').scrollIntoViewIfNeeded();
  await screenshot(page, `ulog-messages-${shotName}`);
  // A plot of the busiest subscription, as on every format.
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done', null, { timeout: 120_000 });
  assert.ok(Number(await page.getAttribute('#plot-card', 'data-count')) > 0);
  await screenshot(page, `ulog-plot-${shotName}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  t.diagnostic(`${basename(path)}: ${params.parameters.length} parameters, ${messages.messages.length} logged messages, ${gps.kept} GPS fixes`);
}

test('ulog: a writer-made flight shows its vehicle, parameters, logged messages, GPS track and a plot as the CLI reads them', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const path = join(dir, 'flight.ulg');
  execFileSync(cli, ['make-demo-ulog', path, '--size-mb', '2'], { stdio: 'ignore' });
  await checkFlight(t, path, 'demo');
});

for (const name of ['PX4__pyulog__sample_px4_events.ulg', 'PX4__pyulog__sample_log_small.ulg']) {
  test(`ulog: the real flight ${name} in the page, as the CLI reads it`, async (t) => {
    if (skipUnless(t, { samples: true, cli: true })) return;
    assert.ok(haveSamples);
    await checkFlight(t, sample('ulog', name), name.replace(/^PX4__pyulog__|\.ulg$/g, ''));
  });
}
