// The Scans tab against `logscope scan --json`: the demo bag's LaserScan at its first message and
// after a step with the next button (which moves the timeline's cursor), and the real bags'
// LaserScans, PointCloud2s (ros_numpy, embag's lz4 chunks, decimated) and PointCloud, with
// screenshots (the real ones skipped without ../shared/samples).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { start, openFile, waitOpened, screenshot, sample, demo, cliJson, haveWasm, skipUnless } from './helpers.mjs';

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

const fixed = (v, d) => (Object.is(Math.round(v * 10 ** d), -0) ? 0 : v).toFixed(d);

// What the tab shows once it has answered for the scan at `scanNs` (any when null).
async function shownScan(page, scanNs = null) {
  await page.waitForFunction((at) => {
    const panel = document.querySelector('#panel-scans');
    return panel?.dataset.count !== undefined && (at === null || panel.dataset.scanNs === at) && !document.body.dataset.job;
  }, scanNs, { timeout: 60_000 });
  return page.evaluate(() => {
    const panel = document.querySelector('#panel-scans');
    return {
      topic: panel.dataset.topic, scanNs: panel.dataset.scanNs, count: Number(panel.dataset.count), shown: Number(panel.dataset.shown),
      legend: panel.dataset.legend, summary: document.querySelector('#scan-summary').textContent,
      rows: [...document.querySelectorAll('#scan-points tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      notes: [...document.querySelectorAll('#scan-notes p')].map((p) => p.textContent),
    };
  });
}

// The tab shows what the CLI answers: the same message, counts, frame, value range and first points.
function sameScan(shown, answer) {
  const scan = answer.scan;
  assert.equal(shown.topic, answer.topic);
  assert.equal(shown.scanNs, scan.time_ns);
  assert.equal(shown.count, scan.count);
  assert.equal(shown.shown, scan.shown);
  assert.match(shown.summary, new RegExp(`${scan.count.toLocaleString('en-US')} points`));
  assert.ok(shown.summary.includes(`in frame "${scan.frame_id}"`), shown.summary);
  assert.ok(shown.summary.includes(`message ${(answer.index + 1).toLocaleString('en-US')} of ${answer.messages.toLocaleString('en-US')}`), shown.summary);
  if (scan.decimated) assert.ok(shown.summary.includes('drawn, spread evenly'), shown.summary);
  assert.deepEqual(shown.rows, scan.points.slice(0, 10).map((p) => [fixed(p[0], 4), fixed(p[1], 4), fixed(p[2], 4), p[3] === null ? '—' : String(p[3])]));
  const lo = scan.value ? scan.bounds.min_value : scan.bounds.min_z, hi = scan.value ? scan.bounds.max_value : scan.bounds.max_z;
  const digits = Math.abs(hi - lo) >= 100 ? 0 : Math.abs(hi - lo) >= 1 ? 2 : 4;
  assert.equal(shown.legend, `${scan.value || 'z (m)'} ${fixed(lo, digits)} … ${fixed(hi, digits)}`);
  assert.deepEqual(shown.notes, scan.problems.map((p) => `${p.code}: ${p.message}`));
}

test('scans: the demo bag\'s /scan at its first message and one step on, as logscope scan --json gives them', async (t) => {
  if (skipUnless(t, { demos: true, cli: true })) return;
  const path = demo('husky_outdoor.bag');
  const page = await env.newPage();
  await openFile(page, path);
  assert.equal(await waitOpened(page, basename(path)), 'summary');
  await page.click('#tab-scans');
  const first = await shownScan(page);
  const answer = cliJson('scan', path, '--json', '--topic', '/scan');
  sameScan(first, answer);
  assert.ok(first.count > 10);
  // One step on: the next message, and the timeline's cursor with it (the Transforms tab follows).
  await page.click('#scan-next');
  const second = await shownScan(page, answer.next_ns);
  sameScan(second, cliJson('scan', path, '--json', '--topic', '/scan', '--at', `${answer.next_ns.slice(0, -9)}.${answer.next_ns.slice(-9)}`));
  await page.click('#tab-tf');
  await page.waitForFunction((at) => document.querySelector('#panel-tf')?.dataset.atNs === at, answer.next_ns, { timeout: 60_000 });
  await page.click('#tab-scans');
  await page.selectOption('#scan-colour', 'height');
  await screenshot(page, 'scans-husky_outdoor.bag');
  await page.context().close();
});

test('scans: a file without scan topics says so; a format without messages says which', async (t) => {
  if (skipUnless(t, { demos: true })) return;
  const page = await env.newPage();
  await openFile(page, demo('town03_intersection.log'));
  assert.equal(await waitOpened(page, 'town03_intersection.log'), 'summary');
  await page.click('#tab-scans');
  // Past "Reading the scan topics…": the answer.
  await page.waitForFunction(() => {
    const text = document.querySelector('#panel-scans')?.textContent || '';
    return /scan topic/.test(text) && !/Reading the scan topics/.test(text) && !document.body.dataset.job;
  }, null, { timeout: 30_000 });
  assert.match(await page.textContent('#panel-scans'), /carries no messages, so it has no scan topic/);
  await page.context().close();
});

const REAL = [
  ['real', 'pbouffard__ccny-ros-pkg-pbouffard__laser_ortho_projector_sample_scan.bag', 'scan'],
  ['real', 'pbouffard__ccny-ros-pkg-pbouffard__polar_scan_matching_demo.bag', '/scan'],
  ['real', 'pbouffard__ccny-ros-pkg-pbouffard__point_cloud_filter_demo.bag', '/swissranger_camera/pointcloud_raw'],
  ['real', 'eric-wieser__ros_numpy__test.bag', '/pointcloud'],
  ['', 'embag__test.bag', '/luminar_pointcloud'],
];
for (const [folder, name, topic] of REAL) {
  test(`scans: the real ${name} (${topic}) as logscope scan --json gives it`, async (t) => {
    if (skipUnless(t, { samples: true, cli: true })) return;
    const path = folder ? sample('rosbag', folder, name) : sample('rosbag', name);
    const page = await env.newPage();
    await openFile(page, path);
    assert.equal(await waitOpened(page, name), 'summary');
    await page.click('#tab-scans');
    let shown = await shownScan(page);
    if (shown.topic !== topic) {
      await page.selectOption('#scan-topic', topic);
      await page.waitForFunction((want) => document.querySelector('#panel-scans').dataset.topic === want && !document.body.dataset.job, topic, { timeout: 60_000 });
      shown = await shownScan(page);
    }
    const answer = cliJson('scan', path, '--json', '--topic', topic);
    sameScan(shown, answer);
    assert.ok(shown.count > 50, `${shown.count} points`);
    await screenshot(page, `scans-${name}`);
    await page.context().close();
  });
}
