// The views: problems linked to the hex view, tree <-> hex selection, the data inspector, search,
// the record view and a worker crash on the writers' demo files (no real file needed), then every
// real sample through every view (skipped without ../shared).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { SAMPLE_FAMILIES } from '../sample-families.mjs';
import { start, openFile, waitOpened, waitIdle, screenshot, demo, haveDemos, sample, samples, haveSamples, haveWasm, haveCli, cliJson, skipUnless, openSettled } from './helpers.mjs';

let env, dir;
before(async () => {
  if (!haveWasm) return;
  env = await start();
  if (!haveDemos) return;
  // A BDDF cut before its index, as a crash at close leaves it: made from the writer's demo file.
  dir = mkdtempSync(join(tmpdir(), 'logscope-views-'));
  const whole = readFileSync(demo('spot_walk.bddf'));
  writeFileSync(join(dir, 'spot_walk_cut.bddf'), whole.subarray(0, Math.floor(whole.length * 0.6)));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const skip = (t) => skipUnless(t, { demos: true });

async function cursorOffset(page) {
  return Number(await page.getAttribute('#cursor-offset', 'data-offset'));
}

test('a problem links to its byte offset in the hex view', async (t) => {
  if (skip(t)) return;
  const path = join(dir, 'spot_walk_cut.bddf');
  const page = await env.newPage();
  await openSettled(page, path);
  await page.click('#tab-problems');
  const items = page.locator('#problem-list .problem');
  assert.ok(await items.count() > 0, 'a file cut before its index has problems');
  await screenshot(page, 'problems-truncated-bddf');
  const last = items.last();
  const offset = Number(await last.getAttribute('data-offset'));
  await last.locator('.offset-link').click();
  await page.waitForSelector('#panel-explore:not([hidden])');
  await page.waitForFunction((o) => document.querySelector(`#hex-slot .b.cur[data-offset="${o}"]`), offset);
  assert.equal(await cursorOffset(page), offset);
  // The hex view shows the right bytes at that offset.
  const bytes = readFileSync(path);
  const shown = await page.textContent(`#hex-slot .b[data-offset="${offset}"]`);
  if (offset < bytes.length) assert.equal(shown, bytes[offset].toString(16).padStart(2, '0'));
  await screenshot(page, 'problem-jump-hex');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('tree and hex selection are linked both ways; inspector and record view follow', async (t) => {
  if (skip(t)) return;
  const path = demo('husky_outdoor.bag');
  const bytes = readFileSync(path);
  const page = await env.newPage();
  await openSettled(page, path);
  await page.click('#tab-explore');
  await page.waitForSelector('.tree-row');
  // Tree -> hex: selecting a node selects its bytes and moves the cursor to its start.
  const row = page.locator('.tree-row').nth(1);
  const id = await row.getAttribute('data-id');
  await row.locator('.tree-label').click();
  const node = await page.evaluate((nodeId) => window.logscope.state.client.call('children', { id: '', first: 0, count: 200 }).then((list) => list.find((n) => n.id === nodeId)), id);
  assert.ok(node, 'the clicked row is a child of the root');
  await page.waitForFunction((o) => Number(document.querySelector('#cursor-offset')?.dataset.offset) === o, node.offset);
  await page.waitForSelector(`#hex-slot .b.sel[data-offset="${node.offset}"]`);
  await page.waitForSelector('#record-tree');
  // Hex -> tree: clicking a byte inside another node selects that node in the tree.
  const other = await page.evaluate((nodeId) => window.logscope.state.client.call('children', { id: '', first: 0, count: 200 }).then((list) => list.find((n) => n.id !== nodeId && n.length > 4)), id);
  assert.ok(other, 'the root has another node');
  const target = other.offset + 2;
  await page.fill('#goto-input', `0x${target.toString(16)}`);
  await page.press('#goto-input', 'Enter');
  await page.waitForSelector(`#hex-slot .b.cur[data-offset="${target}"]`);
  await page.waitForFunction((prev) => { const s = document.querySelector('.tree-row[aria-selected="true"]'); return s && s.dataset.id !== prev; }, id);
  const path2 = await page.evaluate((o) => window.logscope.state.client.call('locate', { offset: o }), target);
  assert.equal(await page.getAttribute('.tree-row[aria-selected="true"]', 'data-id'), path2[path2.length - 1]);
  // Keyboard in the hex view moves the cursor; the data inspector reads the bytes there.
  await page.focus('#hex-slot .hex-scroll');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const moved = target + 17;
  assert.equal(await cursorOffset(page), moved);
  const expectU32 = bytes.readUInt32LE(moved);
  await page.waitForFunction((v) => document.querySelector('#inspector-slot td[data-type="u32"]')?.textContent === String(v), expectU32);
  await page.click('#inspector-slot button:has-text("BE")');
  assert.equal(await page.textContent('#inspector-slot td[data-type="u32"]'), String(bytes.readUInt32BE(moved)));
  // Keyboard in the tree.
  await page.focus('.tree');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.getAttribute('.tree-row[aria-selected="true"]', 'data-id'), await page.locator('.tree-row').nth(1).getAttribute('data-id'));
  await screenshot(page, 'explore-rosbag');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('search for a byte pattern and for text runs in the worker', async (t) => {
  if (skip(t)) return;
  const path = demo('town03_intersection.log');
  const bytes = readFileSync(path);
  const page = await env.newPage();
  await openSettled(page, path);
  await page.click('#tab-explore');
  // A pattern taken from the middle of the file; its first occurrence is computed here.
  const middle = Math.floor(bytes.length / 2);
  const pattern = bytes.subarray(middle, middle + 6);
  const expected = bytes.indexOf(pattern);
  await page.fill('#search-input', [...pattern].map((b) => b.toString(16).padStart(2, '0')).join(' '));
  await page.click('#search-next');
  await page.waitForFunction(() => document.querySelector('#search-status').dataset.found !== undefined);
  assert.equal(Number(await page.getAttribute('#search-status', 'data-found')), expected);
  await page.waitForSelector(`#hex-slot .b.sel[data-offset="${expected}"]`);
  // Text search, forward from the cursor.
  await page.selectOption('#search-mode', 'text');
  await page.fill('#search-input', 'vehicle');
  await page.evaluate(() => { delete document.querySelector('#search-status').dataset.found; });
  await page.click('#search-next');
  await page.waitForFunction(() => document.querySelector('#search-status').dataset.found !== undefined);
  const textAt = bytes.indexOf(Buffer.from('vehicle'), expected);
  const found = await page.getAttribute('#search-status', 'data-found');
  assert.equal(found, textAt < 0 ? 'none' : String(textAt));
  await screenshot(page, 'search-carla');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a worker crash leaves the page alive and offers to reload the file', async (t) => {
  if (skip(t)) return;
  const path = demo('spot_walk.bddf');
  const page = await env.newPage();
  await openSettled(page, path);
  await page.evaluate(() => window.logscope.crashWorkerForTest());
  await page.waitForSelector('#crash-banner');
  await screenshot(page, 'worker-crash');
  await page.click('#crash-banner button:has-text("Reload the file")');
  assert.equal(await waitOpened(page, basename(path)), 'summary');
  await page.waitForSelector('#facts .fact');
  await page.context().close();
});

test('every sample opens and every view works on it', async (t) => {
  if (skipUnless(t, { samples: true })) return;
  const page = await env.newPage();
  const results = [];
  // The formats logscope reads (not mcap/, rosbag2/ yet), those with samples.
  for (const family of SAMPLE_FAMILIES.filter((f) => existsSync(`${samples}/${f}`))) {
    // Files only (rosbag/real is a folder of its own), and not the recorded `rosbag info` texts.
    for (const name of readdirSync(`${samples}/${family}`).filter((f) => !/\.(json|md|txt)$/.test(f) && statSync(`${samples}/${family}/${f}`).isFile())) {
      const path = `${samples}/${family}/${name}`;
      const size = readFileSync(path).length;
      await openFile(page, path);
      const outcome = await waitOpened(page, name);
      // Unknown only where the CLI says so too (a sample folder may hold a file that only bears the
      // format's name, kept to be refused), or for an empty file.
      const unknown = size === 0 || (haveCli && cliJson('info', '--json', path).detection.family === 'unknown');
      assert.equal(outcome, unknown ? 'unknown' : 'summary', `${name} opened as ${outcome}`);
      await waitIdle(page);
      // Problems view renders.
      await page.click('#tab-problems');
      await page.waitForSelector('#problems-card .card-head');
      const problems = await page.locator('#problem-list .problem').count();
      // Structure & bytes.
      await page.click('#tab-explore');
      if (size > 0) {
        await page.waitForFunction(() => document.querySelector('#hex-slot .b[data-offset="0"]')?.textContent !== '··');
        assert.equal(await page.textContent('#hex-slot .b[data-offset="0"]'), readFileSync(path)[0].toString(16).padStart(2, '0'));
      }
      let decoded = 'n/a';
      if (outcome === 'summary' && await page.locator('.tree-row').count()) {
        await page.locator('.tree-row .tree-label').first().click();
        await page.waitForSelector('#record-tree, #record-slot .error-text');
        decoded = (await page.locator('#record-slot .error-text').count()) ? 'error' : 'ok';
        if (decoded === 'error') assert.fail(`${family}/${name}: decoding its first node failed: ${await page.textContent('#record-slot .error-text')}`);
      }
      results.push(`${family}/${name}: ${outcome}, ${problems} problems, decode ${decoded}`);
      await page.click('#tab-overview');
    }
  }
  console.log(results.map((r) => `# ${r}`).join('\n'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
