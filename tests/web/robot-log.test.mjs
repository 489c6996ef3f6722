// The Robot log tab and the Overview's line on real files with log messages (a ROS 1 bag's
// rosgraph_msgs/Log, Lichtblick's foxglove.Log MCAP), against `logscope log --json`: the rows, the
// filters by level, node and text, a click that puts the timeline's cursor at the row's time, and
// a screenshot of each (skipped without ../shared/samples or the CLI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import { start, openFile, waitOpened, screenshot, sample, demo, cli, haveWasm, skipUnless } from './helpers.mjs';

const BAG = sample('rosbag', 'real', 'SHARATHbhushan__panda_fault_injection_block__2023-02-20-17-55-35.bag');
const EXAMPLE = sample('rosbag', 'rosbagjs__example.bag');
const MCAP = sample('mcap', 'lichtblick-suite__lichtblick__example_logs.mcap');

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

// The CLI's rows (JSON Lines) for these flags.
const cliRows = (path, ...flags) => execFileSync(cli, ['log', path, '--json', ...flags], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
  .split('\n').filter(Boolean).map((line) => JSON.parse(line));

async function openLog(page, path) {
  await openFile(page, path);
  assert.equal(await waitOpened(page, basename(path)), 'summary');
}

// Waits until the log view shows `selected` rows of the selection, and returns the texts of the page.
async function shownRows(page, selected) {
  await page.waitForFunction((n) => document.querySelector('#panel-log')?.dataset.selected === String(n) && document.querySelector('#log-table'), selected, { timeout: 60_000 });
  return page.$$eval('#log-table tbody tr.log-row', (rows) => rows.map((r) => ({
    level: r.querySelector('.log-level').textContent, node: r.cells[2].textContent, text: r.cells[3].textContent, timeNs: r.dataset.timeNs })));
}

for (const [name, path] of [['rosgraph_msgs/Log in a bag', BAG], ['foxglove.Log in an MCAP', MCAP]]) {
  test(`robot log: ${name}, rows, filters and the cursor as the CLI reads them`, async (t) => {
    if (skipUnless(t, { samples: true, cli: true })) return;
    const all = cliRows(path);
    assert.ok(all.length > 0, 'the file has log messages');
    const page = await env.newPage();
    await openLog(page, path);
    // The Overview counts them by level and links to the first error, or to the log.
    await page.waitForFunction(() => document.querySelector('#robot-log-line')?.dataset.total, null, { timeout: 60_000 });
    assert.equal(await page.getAttribute('#robot-log-line', 'data-total'), String(all.length));
    const errors = all.filter((r) => r.level === 'ERROR' || r.level === 'FATAL').length;
    const warnings = all.filter((r) => r.level === 'WARN').length;
    const line = await page.textContent('#robot-log-line');
    if (errors) assert.match(line, new RegExp(`${errors} errors?`));
    if (warnings) assert.match(line, new RegExp(`${warnings} warnings?`));
    await screenshot(page, `robot-log-overview-${basename(path)}`);
    await page.click(errors ? '#log-first-error' : '#log-open');
    let rows = await shownRows(page, all.length);
    assert.deepEqual(rows.map((r) => r.text), all.slice(0, 200).map((r) => r.text));
    assert.deepEqual(rows.map((r) => r.level), all.slice(0, 200).map((r) => r.level));
    if (errors) {  // the first error is picked and its row in view
      const first = all.find((r) => r.level === 'ERROR' || r.level === 'FATAL');
      await page.waitForSelector('#log-table tr.log-row.selected');
      assert.equal(await page.getAttribute('#log-table tr.log-row.selected', 'data-time-ns'), first.time_ns);
    }
    await screenshot(page, `robot-log-${basename(path)}`);

    // Level: at least warn.
    const warn = cliRows(path, '--level', 'warn');
    await page.selectOption('#log-level', 'warn');
    rows = await shownRows(page, warn.length);
    assert.deepEqual(rows.map((r) => r.text), warn.slice(0, 200).map((r) => r.text));
    await page.selectOption('#log-level', '');
    await shownRows(page, all.length);

    // Node: the busiest one.
    const counts = new Map();
    for (const r of all) counts.set(r.node, (counts.get(r.node) || 0) + 1);
    const node = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    await page.selectOption('#log-node', node);
    rows = await shownRows(page, counts.get(node));
    assert.ok(rows.every((r) => r.node === node));
    await page.selectOption('#log-node', '');
    await shownRows(page, all.length);

    // Text: a regular expression from the first message's first word.
    const word = all[0].text.split(/\s+/)[0].replace(/[^A-Za-z0-9]/g, '');
    const pattern = word ? `^${word}` : '.';
    const matching = cliRows(path, '--grep', pattern);
    await page.fill('#log-grep', pattern);
    rows = await shownRows(page, matching.length);
    assert.deepEqual(rows.map((r) => r.text), matching.slice(0, 200).map((r) => r.text));
    await screenshot(page, `robot-log-grep-${basename(path)}`);

    // A click puts the timeline's cursor at the row's time.
    const row = page.locator('#log-table tr.log-row').last();
    const timeNs = await row.getAttribute('data-time-ns');
    await row.click();
    await page.waitForSelector('#log-cursor button');
    await page.click('#log-to-timeline');
    await page.waitForSelector('#panel-plots:not([hidden])');
    await page.waitForFunction((ns) => document.querySelector('#timeline-card')?.dataset.loaded === 'true' && document.querySelector('#timeline-card').dataset.cursorNs === ns, timeNs, { timeout: 60_000 });
    await screenshot(page, `robot-log-cursor-${basename(path)}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('robot log: a file without log topics says so, and the Overview has no line', async (t) => {
  if (skipUnless(t, { samples: true, cli: true })) return;
  const path = sample('rosbag', 'embag__test.bag');
  assert.deepEqual(cliRows(path), []);
  const page = await env.newPage();
  await openLog(page, path);
  await page.click('#tab-log');
  await page.waitForFunction(() => document.querySelector('#panel-log')?.dataset.total === '0', null, { timeout: 60_000 });
  assert.match(await page.textContent('#panel-log'), /no log topic/);
  assert.equal(await page.$('#robot-log-line'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Found measuring the tab on a BDDF file (2026-12-06): it showed "unknown query: robot_log" as an
// error with "Try again", where the other views say the format carries no messages.
test('robot log: a format whose view module reads no messages (a BDDF file) says so, not an error', async (t) => {
  if (skipUnless(t, { demos: true })) return;
  const page = await env.newPage();
  await openLog(page, demo('spot_walk.bddf'));
  await page.click('#tab-log');
  await page.waitForFunction(() => /carries no log messages/.test(document.querySelector('#panel-log')?.textContent || ''), null, { timeout: 30_000 });
  assert.doesNotMatch(await page.textContent('#panel-log'), /unknown query|Try again/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('robot log: the rosbag.js example bag pages 6 rosgraph_msgs/Log rows like the CLI', async (t) => {
  if (skipUnless(t, { samples: true, cli: true })) return;
  const all = cliRows(EXAMPLE);
  const page = await env.newPage();
  await openLog(page, EXAMPLE);
  await page.click('#tab-log');
  const rows = await shownRows(page, all.length);
  assert.deepEqual(rows.map((r) => r.timeNs), all.slice(0, 200).map((r) => r.time_ns));
  await page.context().close();
});
