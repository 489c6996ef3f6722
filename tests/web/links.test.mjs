// Deep links: the view (tab, table row, structure node, hex cursor and selection, the timeline's
// range and the plot) is kept in the address; "Copy link" gives it; opening the link shows the
// same place. For a remote file the link opens the file too; for a local one it says the file
// cannot travel, and restores the view once the same file is opened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openFile, waitOpened, waitIdle, screenshot, demo, haveWasm, haveDemos, skipUnless, brushTimeline } from './helpers.mjs';
import { fileServer } from './servers.mjs';

const BAG = demo('husky_outdoor.bag');  // made by our writer: no real file needed
let env, dir;
before(async () => {
  if (!haveWasm || !haveDemos) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-links-'));
  copyFileSync(BAG, join(dir, 'example.bag'));
  copyFileSync(demo('town03_intersection.log'), join(dir, 'town03.log'));
  env = await start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
const skip = (t) => skipUnless(t, { demos: true });

// Puts the page somewhere particular: a topic row, the Structure & bytes tab, a node found from
// an offset in the middle of the file, and a 4-byte hex selection made with Shift+→.
async function goSomewhere(page) {
  await page.click('#tables-slot [data-table] tbody tr:nth-child(2)');
  await page.click('#tab-explore');
  await page.waitForSelector('#tree-slot .tree-row');
  await page.fill('#goto-input', '0x2a10');
  await page.press('#goto-input', 'Enter');
  await page.waitForFunction(() => window.logscope.view().node && window.logscope.view().at === 0x2a10);
  await page.focus('.hex-scroll');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
  await page.waitForFunction(() => window.logscope.view().sel?.end === 0x2a14);
  const view = await page.evaluate(() => window.logscope.view());
  assert.equal(view.tab, 'explore');
  assert.match(view.row, /^\w+:.+/);
  assert.ok(view.node, 'a structure node is selected');
  assert.deepEqual(view.sel, { start: 0x2a10, end: 0x2a14 });
  assert.equal(view.at, 0x2a13);
  return view;
}

async function copyLink(page) {
  await page.click('#copy-link');
  await page.waitForSelector('#link-note:not([hidden]) #link-text');
  return { href: await page.inputValue('#link-text'), explain: await page.textContent('#link-explain') };
}

test('a link to a remote file opens the same file at the same view', async (t) => {
  if (skip(t)) return;
  const server = await fileServer(dir, { range: true, cors: 'full' });
  try {
    const page = await env.newPage({ query: `?nodemo&url=${encodeURIComponent(server.url + 'example.bag')}` });
    assert.equal(await waitOpened(page, 'example.bag'), 'summary');
    await waitIdle(page);
    const view = await goSomewhere(page);
    const { href, explain } = await copyLink(page);
    assert.match(explain, /opens this remote file/);
    const link = new URL(href);
    assert.equal(link.searchParams.get('url'), server.url + 'example.bag');
    assert.equal(link.searchParams.get('tab'), 'explore');
    assert.equal(link.searchParams.get('sel'), '0x2a10-0x2a14');
    assert.equal(link.searchParams.get('at'), '0x2a13');
    await screenshot(page, 'link-copied');
    await page.context().close();

    const again = await env.newPage({ query: link.search });
    assert.equal(await waitOpened(again, 'example.bag'), 'summary');
    await again.waitForFunction(() => document.body.dataset.viewRestored === 'true', null, { timeout: 30_000 });
    assert.deepEqual(await again.evaluate(() => window.logscope.view()), view);
    assert.equal(await again.getAttribute(`#tree-slot .tree-row[data-id="${view.node}"]`, 'aria-selected'), 'true', 'the node is shown selected');
    assert.equal(await again.locator('#tables-slot tr.selected').count(), 1, 'the table row is shown selected');
    const params = (u) => Object.fromEntries([...new URL(u).searchParams].sort());
    assert.deepEqual(params(again.url()), params(href), 'the address is the link');
    await screenshot(again, 'link-opened');
    assert.deepEqual(again.errors, []);
    await again.context().close();
  } finally {
    await server.closeAll();
  }
});

test('a link made for a local file says the file cannot travel, and restores the view when the file is opened', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openFile(page, BAG);
  assert.equal(await waitOpened(page, 'husky_outdoor.bag'), 'summary');
  await waitIdle(page);
  const view = await goSomewhere(page);
  const { href, explain } = await copyLink(page);
  assert.match(explain, /file itself cannot travel in a link/);
  assert.match(explain, /view .* can/);
  const link = new URL(href);
  assert.equal(link.searchParams.get('url'), null);
  assert.equal(link.searchParams.get('file'), 'husky_outdoor.bag');
  await page.context().close();

  const again = await env.newPage({ query: link.search });
  await again.waitForSelector('#link-hint');
  assert.match(await again.textContent('#link-hint'), /cannot travel in a link/);
  assert.match(await again.textContent('#link-hint'), /husky_outdoor\.bag/);
  await screenshot(again, 'link-local-hint');
  await openFile(again, BAG);
  assert.equal(await waitOpened(again, 'husky_outdoor.bag'), 'summary');
  await again.waitForFunction(() => document.body.dataset.viewRestored === 'true', null, { timeout: 30_000 });
  assert.deepEqual(await again.evaluate(() => window.logscope.view()), view);
  assert.equal(await again.locator('#link-hint').count(), 0);
  assert.deepEqual(again.errors, []);
  await again.context().close();
});

test('opening another file starts with a fresh view in the address', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openFile(page, BAG);
  assert.equal(await waitOpened(page, 'husky_outdoor.bag'), 'summary');
  await waitIdle(page);
  await goSomewhere(page);
  await page.waitForFunction(() => new URLSearchParams(location.search).has('sel'));
  await openFile(page, demo('spot_walk.bddf'));
  assert.equal(await waitOpened(page, 'spot_walk.bddf'), 'summary');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('file') === 'spot_walk.bddf');
  const params = new URL(page.url()).searchParams;
  for (const key of ['tab', 'node', 'row', 'sel']) assert.equal(params.get(key), null, `${key} is cleared`);
  await page.context().close();
});

// A bag plots a topic; a CARLA log an actor, listed once the map's pass is done.
for (const [name, pick] of [['example.bag', '/navsat/fix'], ['town03.log', null]]) test(`a link keeps the timeline range and the plot (${name}): opening it brushes the same range and plots the same source and fields`, async (t) => {
  if (skip(t)) return;
  const server = await fileServer(dir, { range: true, cors: 'full' });
  const plotted = (page, want) => page.waitForFunction((w) => {
    const card = document.querySelector('#plot-card');
    return card?.dataset.state === 'done' && card.dataset.source === w.source && (!w.t0 || card.dataset.t0Ns === w.t0);
  }, want, { timeout: 30_000 });
  try {
    const page = await env.newPage({ query: `?nodemo&url=${encodeURIComponent(server.url + name)}` });
    assert.equal(await waitOpened(page, name), 'summary');
    await waitIdle(page);
    await page.click('#tab-plots');
    await page.waitForSelector('#timeline-card[data-loaded="true"]');
    await page.waitForFunction(() => document.querySelectorAll('#plot-source option').length > 2 && document.querySelector('#plot-card').dataset.state === 'done', null, { timeout: 30_000 });
    // Not the source shown first.
    const source = pick ?? await page.$eval('#plot-source', (select) => select.options[2].value);
    await page.selectOption('#plot-source', source);
    await plotted(page, { source });
    // Brush 20 % .. 70 % of the timeline.
    const { t0, t1 } = await brushTimeline(page, 0.2, 0.7);
    await plotted(page, { source, t0 });
    // Seconds after the file's start, not after 1970.
    const selected = await page.textContent('#timeline-selection');
    assert.match(selected, /^Selected \+\d{1,4}\.\d{3} s … \+\d{1,4}\.\d{3} s/);
    const before = await page.$eval('#plot-card', (card) => ({ fields: card.dataset.fields, count: card.dataset.count, t1: card.dataset.t1Ns }));
    const { href } = await copyLink(page);
    const link = new URL(href);
    assert.equal(link.searchParams.get('tab'), 'plots');
    assert.equal(link.searchParams.get('t0'), t0);
    assert.equal(link.searchParams.get('t1'), t1);
    assert.equal(link.searchParams.get('plot'), source);
    assert.equal(link.searchParams.get('fields'), before.fields);
    await page.context().close();

    const again = await env.newPage({ query: link.search });
    assert.equal(await waitOpened(again, name), 'summary');
    await again.waitForFunction(() => document.body.dataset.viewRestored === 'true', null, { timeout: 30_000 });
    await plotted(again, { source, t0 });
    assert.equal(await again.getAttribute('#timeline-selection', 'data-t0-ns'), t0, 'the timeline shows the range');
    assert.equal(await again.getAttribute('#timeline-selection', 'data-t1-ns'), t1);
    assert.equal(await again.textContent('#timeline-selection'), selected);
    assert.deepEqual(await again.$eval('#plot-card', (card) => ({ fields: card.dataset.fields, count: card.dataset.count, t1: card.dataset.t1Ns })), before, 'the same fields and points');
    const params = (u) => Object.fromEntries([...new URL(u).searchParams].sort());
    assert.deepEqual(params(again.url()), params(href), 'the address is the link');
    await screenshot(again, `link-plot-opened-${name}`);
    // Clearing the range takes it out of the address.
    await again.click('#timeline-clear');
    await again.waitForFunction(() => !new URLSearchParams(location.search).has('t0'));
    assert.deepEqual(again.errors, []);
    await again.context().close();
  } finally {
    await server.closeAll();
  }
});
