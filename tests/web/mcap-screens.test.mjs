// Screenshots of MCAP files in the page, to be looked at: a real ROS 2 MCAP written by rosbag2
// (../shared/samples/mcap, the `ros2` profile; and rosbag2's zstd test bag) in every tab, and damaged ones in Problems: the same
// sample cut inside its chunk, and a writer-made MCAP whose "\r\n" were turned into "\n" (the
// line-ending damage, as tests/codec/test_mcap_damage.cpp makes it). Each shot is of the whole
// page (test-results/screenshots/mcap-*.png); the asserts are what a look would check first: no
// empty panel, no raw JSON, the problems named with their offsets. Skipped without the samples.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, sample, haveWasm, skipUnless, shots, cli } from './helpers.mjs';

const ROS2 = 'ros2__rosbag2__bag_with_topics_and_service_events.mcap'; // written by rosbag2 (libmcap), profile ros2
const WBAG = 'ros2__rosbag2__wbag_0.mcap'; // rosbag2's test bag, profile ros2, written by mcap go: 8 channels, zstd
let env, dir;

before(async () => {
  if (!haveWasm) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-screens-'));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Tall enough for a whole tab: the page scrolls inside its panels, so a full-page shot is the window.
const VIEWPORT = { width: 1440, height: 1500 };

async function shoot(page, name) {
  await page.waitForTimeout(150); // layout settles (charts draw on the next frame)
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

// No panel shows a JSON object or array as text (a view that fell back to printing its answer).
async function noRawJson(page, panel) {
  const text = await page.textContent(panel);
  assert.doesNotMatch(text, /\{"[a-z_]+":|\[\{"/, `${panel} shows raw JSON`);
}

const TABS = [
  ['overview', '#facts .fact'],
  ['problems', '#problems-card .card-head'],
  ['data', '#data-table tbody tr'],
  ['plots', '#timeline-card[data-loaded="true"]'],
  ['explore', '.tree-row'],
  ['extract', '#extract-card'],
];

for (const [name, shot] of [[ROS2, 'mcap-ros2'], [WBAG, 'mcap-wbag']]) test(`a real ROS 2 MCAP (${name}) in every tab`, async (t) => {
  if (skipUnless(t, { samples: true })) return;
  const path = sample('mcap', name);
  if (!existsSync(path)) return t.skip(`SKIPPED: ${path} is absent`);
  const page = await env.newPage({ viewport: VIEWPORT });
  await openSettled(page, path);
  assert.equal(await page.textContent('.format-pill'), 'MCAP (ros2 profile)');
  for (const [tab, ready] of TABS) {
    await page.click(`#tab-${tab}`);
    await page.waitForSelector(`#panel-${tab}:not([hidden]) ${ready}`, { timeout: 60_000 });
    if (tab === 'plots') await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#plot-card')?.dataset.state ?? 'done'), null, { timeout: 60_000 }).catch(() => {});
    if (tab === 'explore') {
      await page.waitForFunction(() => document.querySelector('#hex-slot .b[data-offset="0"]')?.textContent !== '··');
      await page.locator('.tree-row .tree-label').nth(1).click();
      await page.waitForSelector('#record-tree, #record-slot .error-text');
      assert.equal(await page.locator('#record-slot .error-text').count(), 0, 'the Header record decodes');
    }
    if (tab === 'data') {
      await page.locator('#data-table tbody tr').first().click();
      await page.waitForSelector('#data-table tr.detail .rv-key, #data-table tr.detail .error-text', { timeout: 30_000 });
    }
    await noRawJson(page, `#panel-${tab}`);
    await shoot(page, `${shot}-${tab}`);
  }
  // The Problems tab after the full check (what the doctor adds).
  await page.click('#tab-problems');
  if (await page.locator('#run-check').count()) {
    await page.click('#run-check');
    await page.waitForFunction(() => document.body.dataset.checked === 'true' && !document.body.dataset.job, null, { timeout: 60_000 });
    await shoot(page, `${shot}-problems-checked`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The Problems tab of a damaged file: every problem in the list names its offset.
async function damaged(t, path, shot, codes) {
  const page = await env.newPage({ viewport: VIEWPORT });
  await openSettled(page, path);
  await page.click('#tab-problems');
  await page.waitForSelector('#problems-card .card-head');
  if (await page.locator('#run-check').count()) {
    await page.click('#run-check');
    await page.waitForFunction(() => document.body.dataset.checked === 'true' && !document.body.dataset.job, null, { timeout: 60_000 });
  }
  const text = await page.textContent('#panel-problems');
  for (const code of codes) assert.ok(text.includes(code), `${shot}: ${code} in the Problems tab`);
  await noRawJson(page, '#panel-problems');
  await shoot(page, shot);
  await page.click('#tab-overview');
  await shoot(page, `${shot}-overview`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
}

test('a real ROS 2 MCAP cut inside its chunk, in Problems', async (t) => {
  if (skipUnless(t, { samples: true, cli: true })) return;
  const path = sample('mcap', ROS2);
  if (!existsSync(path)) return t.skip(`SKIPPED: ${path} is absent`);
  const bytes = readFileSync(path);
  // The middle of its first Chunk record (opcode 0x06): the records after the 8-byte magic are an
  // opcode and a uint64 length each.
  let at = 0;
  for (let p = 8; p + 9 <= bytes.length; p += 9 + Number(bytes.readBigUInt64LE(p + 1))) {
    if (bytes[p] === 0x06) { at = p + 9 + Math.floor(Number(bytes.readBigUInt64LE(p + 1)) / 2); break; }
  }
  assert.ok(at > 0, 'the sample has a Chunk');
  const cut = join(dir, `cut_${ROS2}`);
  writeFileSync(cut, bytes.subarray(0, at));
  await damaged(t, cut, 'mcap-ros2-cut-problems', ['mcap.file.truncated']);
});

test('a writer-made MCAP whose "\\r\\n" became "\\n", in Problems', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const whole = join(dir, 'rover.mcap');
  execFileSync(cli, ['make-demo-mcap', whole, '--size-mb', '1', '--compression', 'none', '--chunk-kb', '64'], { stdio: 'ignore' });
  const bytes = readFileSync(whole);
  const out = [];
  for (let i = 0; i < bytes.length; i++) if (!(bytes[i] === 0x0d && bytes[i + 1] === 0x0a)) out.push(bytes[i]);
  const converted = join(dir, 'rover_lf.mcap');
  writeFileSync(converted, Buffer.from(out));
  await damaged(t, converted, 'mcap-line-endings-problems', ['mcap.file.line_endings']);
});
