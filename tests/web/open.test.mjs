// Opening one file of each format: detected format, summary numbers against the CLI's JSON,
// and unknown files with their diagnosis.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { start, openFile, waitOpened, waitIdle, cliJson, screenshot, sample, demo, haveDemos, haveSamples, haveWasm, haveCli, formatCount } from './helpers.mjs';

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

// Real files (skipped without ../shared) and the writers' demo files (always).
const CASES = [
  ['bddf', sample('bddf', 'robot_state_small.bddf'), true],
  ['rosbag', sample('rosbag', 'rosbagjs__example-lz4.bag'), true],
  ['carla', sample('carla', 'scenario_runner_0.9.13_DistanceToLaneCenter.log'), true],
  ['bddf', demo('spot_walk.bddf'), false],
  ['rosbag', demo('husky_outdoor.bag'), false],
  ['carla', demo('town03_intersection.log'), false],
];

// Texts the page may show for a number from the CLI's JSON (counts, exact bytes, seconds).
function numberTexts(value) {
  return [formatCount(value), String(value), String(+value.toFixed(6)), String(+value.toPrecision(10))];
}

for (const [family, path, real] of CASES) {
  test(`opens ${family} (${real ? 'real sample' : 'writer-made'} ${basename(path)}) and shows the CLI's summary numbers`, async (t) => {
    if (!haveWasm) return t.skip('SKIPPED: web/gen/logscope.mjs is not built (bash scripts/build.sh)');
    if (real && !haveSamples) return t.skip('SKIPPED: ../shared/samples is absent');
    if (!real && !haveDemos) return t.skip('SKIPPED: no demo files in web/gen/demo (scripts/make-demos.sh)');
    if (!haveCli) return t.skip('SKIPPED: build/native/logscope is not built');
    const expected = cliJson('info', '--json', path).summary;
    const page = await env.newPage();
    await openFile(page, path);
    assert.equal(await waitOpened(page, basename(path)), 'summary');
    assert.equal(await page.evaluate(() => document.body.dataset.format), family);
    await waitIdle(page);
    await page.waitForSelector('#facts .fact');
    const pill = await page.textContent('.format-pill');
    assert.equal(pill, expected.format_label || expected.detection?.label);

    // Facts (the format's own; the common ones are checked in contract.test.mjs): every number in the CLI's facts is the raw value of the page's fact of the same key,
    // and the text shows it: exactly (counts, ids, sizes in bytes) or rounded to the shown precision
    // (durations, rates, floats: "12.53 s" for 12.528204976581037).
    const facts = await page.$$eval('#facts .fact', (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.key, { text: n.querySelector('dd').textContent, value: n.querySelector('dd').dataset.value }])));
    let compared = 0;
    for (const { key, value, unit } of expected.facts || []) {
      if (typeof value !== 'number') continue;
      assert.ok(key in facts, `fact ${key} is shown`);
      assert.equal(Number(facts[key].value), value, `fact ${key}: raw value`);
      const shown = facts[key].text;
      const rounded = unit === 'ratio' ? [`${(value * 100).toFixed(1)} %`] : [2, 1, 0].map((d) => value.toFixed(d));
      assert.ok(numberTexts(value).some((text) => shown.includes(text)) || rounded.some((text) => shown.includes(text)), `fact ${key}: page shows "${shown}", CLI says ${value}`);
      compared++;
    }
    // Tables: same row counts, and the numeric cells of the first rows match.
    for (const table of expected.tables || []) {
      const card = page.locator(`[data-table="${table.name}"]`);
      assert.equal(await card.count(), 1, `table ${table.name} is shown`);
      const rows = await card.locator('tbody tr').count();
      assert.equal(rows, Math.min(table.rows.length, 200), `table ${table.name} rows`);
      const cells = await card.locator('tbody tr').first().locator('td').evaluateAll((tds) => tds.map((td) => td.dataset.value ?? td.textContent));
      table.rows[0]?.forEach((value, i) => {
        if (typeof value === 'number') { assert.equal(Number(cells[i]), value, `table ${table.name} row 0 column ${table.columns[i]}`); compared++; }
        else if (typeof value === 'string') assert.equal(cells[i], value, `table ${table.name} row 0 column ${table.columns[i]}`);
      });
    }
    console.log(`# ${family}: compared ${compared} numbers with the CLI; summary in ${await page.evaluate(() => document.body.dataset.summaryMs)} ms`);
    assert.ok(compared > 0, 'at least one number was compared');
    assert.deepEqual(page.errors, []);
    await screenshot(page, `overview-${family}${real ? "" : "-demo"}`);
    await page.context().close();
  });
}

test('unknown files show what they are and what to do', async (t) => {
  if (!haveWasm) return t.skip('SKIPPED: web/gen/logscope.mjs is not built');
  const dir = mkdtempSync(join(tmpdir(), 'logscope-web-'));
  try {
    const files = {
      'download.bag': ['html', '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please log in</body></html>\n'],
      'pointer.bddf': ['lfs-pointer', 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n'],
      'log.bag.gz': ['gzip', gzipSync(Buffer.from('#ROSBAG V2.0\n' + 'x'.repeat(1000)))],
      'nothing.log': ['empty', ''],
    };
    const page = await env.newPage();
    for (const [name, [kind, content]] of Object.entries(files)) {
      writeFileSync(join(dir, name), content);
      await openFile(page, join(dir, name));
      assert.equal(await waitOpened(page, name), 'unknown', name);
      await page.waitForSelector(`#unknown-format[data-kind="${kind}"]`);
      const diagnosis = await page.textContent('#diagnosis');
      assert.ok(diagnosis.length > 20, `${name} has a diagnosis`);
      if (haveCli) {
        const cliSays = cliJson('info', '--json', join(dir, name));
        const cliDiagnosis = cliSays.detection?.diagnosis ?? cliSays.diagnosis;
        if (cliDiagnosis) assert.equal(diagnosis, cliDiagnosis, `${name}: same diagnosis as the CLI`);
      }
      if (kind === 'html') await screenshot(page, 'unknown-html');
    }
    // The page never renders file text as HTML: the title of the HTML page is not in the DOM as an element.
    assert.equal(await page.locator('title').count(), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the demo log opens by itself when the page is served with demos', async (t) => {
  if (!haveWasm) return t.skip('SKIPPED: web/gen/logscope.mjs is not built');
  const page = await env.newPage({ query: '' });
  const manifest = await page.evaluate(() => fetch('gen/demo/manifest.json').then((r) => (r.ok ? r.json() : null)));
  if (!manifest) return t.skip('SKIPPED: no demo files in web/gen/demo (scripts/make-demos.sh)');
  assert.equal(await waitOpened(page, manifest.default), 'summary');
  await waitIdle(page);
  await screenshot(page, 'demo-default');
  await page.context().close();
});
