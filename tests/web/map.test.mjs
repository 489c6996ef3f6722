// The map of the file on the Overview tab: its segments agree with `logscope map --json` for each
// demo format, a bag cut inside a chunk shows the damaged chunk and the missing rest at the
// offsets `logscope check` reports, and a click opens the hex view there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, truncateSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, skipUnless, haveWasm, screenshot, openSettled, cli, cliJson, demo } from './helpers.mjs';

let env;
let work;
before(async () => { if (haveWasm) env = await start(); work = mkdtempSync(join(tmpdir(), 'logscope-map-')); });
after(async () => { await env?.close(); rmSync(work, { recursive: true, force: true }); });

const segments = (page) => page.$$eval('#map-bar .map-seg', (nodes) => nodes.map((n) => ({ kind: n.dataset.kind, offset: Number(n.dataset.offset), length: Number(n.dataset.length) })));
const expected = (map) => map.regions.map((r) => ({ kind: r.kind, offset: r.offset, length: r.length }));
const cursorAt = (page, offset) => page.waitForFunction((o) => Number(document.querySelector('#cursor-offset')?.dataset.offset) === o, offset);

for (const [name, shot] of [['husky_outdoor.bag', 'map-bag'], ['spot_walk.bddf', 'map-bddf'], ['town03_intersection.log', 'map-carla']]) {
  test(`the map of ${name} matches logscope map --json`, async (t) => {
    if (skipUnless(t, { cli: true, demos: true })) return;
    const want = cliJson('map', demo(name), '--json').map;
    for (const colorScheme of ['light', 'dark']) {
      const page = await env.newPage({ colorScheme });
      await openSettled(page, demo(name));
      // A demo is checked by itself on open, and its map is then redrawn from that check (in the
      // job worker, after body[data-job] is gone): hovering before the redraw loses the detail.
      await page.waitForSelector('#map-slot[data-source="check"] #map-bar .map-seg', { timeout: 120_000 });
      assert.deepEqual(await segments(page), expected(want));
      const kinds = await page.$$eval('#map-legend li[data-kind]', (nodes) => nodes.map((n) => n.dataset.kind));
      assert.deepEqual(kinds, [...new Set(want.regions.map((r) => r.kind))]);
      // Hover says what a segment is.
      await page.hover('#map-bar .map-seg >> nth=-1');
      const last = want.regions[want.regions.length - 1];
      assert.match(await page.textContent('#map-detail'), new RegExp(last.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await page.locator('#map-slot').scrollIntoViewIfNeeded();
      await screenshot(page, `${shot}-${colorScheme}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
}

test('a bag cut inside a chunk: damaged at the offset check reports, then missing', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const full = join(work, 'made.bag');
  execFileSync(cli, ['make-demo-rosbag', full]);
  const cut = join(work, 'cut.bag');
  copyFileSync(full, cut);
  const chunks = cliJson('map', full, '--json').map.regions.find((r) => r.kind === 'chunk');
  // Cut halfway through the last chunk.
  const lastChunkAt = cliJson('map', full, '--json').map.regions.filter((r) => r.kind === 'chunk').pop();
  truncateSync(cut, Math.floor(lastChunkAt.offset + lastChunkAt.length * 0.7));
  assert.ok(chunks);
  const report = cliJson('check', cut, '--json').report;
  const stopped = report.recovery.ends_at;
  assert.ok(stopped > 0, 'check reports where reading stopped');

  for (const colorScheme of ['light', 'dark']) {
    const page = await env.newPage({ colorScheme });
    await openSettled(page, cut);
    await page.waitForSelector('#map-bar .map-seg');
    let segs = await segments(page);
    const damaged = segs.find((s) => s.kind === 'damaged');
    assert.ok(damaged, 'a damaged segment');
    assert.equal(damaged.offset, stopped, 'where check says reading stopped');
    assert.ok(segs.some((s) => s.kind === 'missing'), 'a missing part');
    assert.ok(segs.some((s) => s.kind === 'chunk' && s.offset + s.length === stopped), 'the intact chunks up to it');
    assert.ok(await page.$('#map-bar .map-seg[data-kind="damaged"][data-problem="error"] .map-mark'), 'the problem is marked');
    await page.locator('#map-slot').scrollIntoViewIfNeeded();
    await page.focus('#map-bar .map-seg[data-kind="damaged"]');
    await screenshot(page, `map-cut-bag-${colorScheme}`);

    // The full check refines it (the same map as `logscope map --check`).
    if (colorScheme === 'light') {
      // (a small file is checked by itself once opened; otherwise the user runs it)
      await page.click('#tab-problems');
      await page.waitForFunction(() => document.querySelector('#run-check') || document.body.dataset.checked === 'true');
      if (await page.$('#run-check')) await page.click('#run-check');
      await page.waitForSelector('#map-slot[data-source="check"]', { state: 'attached', timeout: 120_000 });
      segs = await segments(page);
      assert.deepEqual(segs, expected(cliJson('map', cut, '--check', '--json').map));
      await page.click('#tab-overview');
    }

    // Enter on a focused segment, and a click, open the hex view at its offset.
    await page.focus('#map-bar .map-seg[data-kind="damaged"]');
    await page.keyboard.press('Enter');
    await cursorAt(page, stopped);
    await page.click('#tab-overview');
    const chunk = segs.find((s) => s.kind === 'chunk');
    await page.click(`#map-bar .map-seg[data-offset="${chunk.offset}"]`);
    await cursorAt(page, chunk.offset);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a map of 250,000 regions draws at most MAX_SEGMENTS segments, keeping the damaged ones', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  const result = await page.evaluate(async () => {
    const { mapSegments, MAX_SEGMENTS } = await import('./src/file-map.js');
    const regions = [];
    for (let i = 0; i < 250000; i++) regions.push({ offset: i * 100, length: 100, kind: i % 2 ? 'block' : 'index', label: `r${i}`, count: 1, problems: [] });
    regions[1000].kind = 'damaged';
    regions[200000].problems = [0];
    const started = performance.now();
    const segs = mapSegments({ file_size: 25000000, regions, problems: [{ severity: 'error', code: 'x', offset: 20000000 }] });
    const covered = segs.reduce((n, s) => n + s.length, 0);
    return { count: segs.length, max: MAX_SEGMENTS, ms: performance.now() - started, covered, damaged: segs.filter((s) => s.kind === 'damaged').map((s) => s.offset), marked: segs.filter((s) => s.problems.length).length };
  });
  assert.ok(result.count <= result.max, `${result.count} segments`);
  assert.equal(result.covered, 25000000, 'the segments still cover the file');
  assert.deepEqual(result.damaged, [100000]);
  assert.equal(result.marked, 1);
  await page.context().close();
});
