#!/usr/bin/env node
// Screenshots of the page's tabs (Overview, Problems, Data, Structure & bytes, Timeline & plots,
// Extract & export) for each given log, opened through the file input as a user would. Used to compare two versions of the
// page (e.g. before and after a refactoring): run it once per web root, with the same files.
// Usage: node scripts/screenshots.mjs --root DIR --out DIR [--width 1280 --height 900] [--details] FILE...
// --details adds two shots: the first expandable Data row opened (its decoded record) and the
// second structure node selected (the Record pane).
// Writes OUT/<file name>-<n>-<tab>.png (the window), OUT/<file name>-<n>-<tab>-full.png when the
// tab's panel holds more than the window shows (a window tall enough for all of it), and
// OUT/run.json (page state, errors, panel sizes, timings).
// A contact sheet of two such runs for one file (before | after, the tabs as rows, scaled), composed
// by the browser itself from an HTML page of the images:
//   node scripts/screenshots.mjs --sheet OUT.jpg --before DIR --after DIR [--before-label TEXT --after-label TEXT]
//     [--scale 0.5 --max-height 1800 --quality 70] FILE_NAME
// Needs playwright-core and /usr/bin/chromium, like the browser tests.
import { chromium } from 'playwright-core';
import { mkdirSync, writeFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveStatic } from './serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const TABS = ['overview', 'problems', 'data', 'explore', 'plots', 'extract'];

const { values: opts, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string' },
    out: { type: 'string' },
    width: { type: 'string', default: '1280' },
    height: { type: 'string', default: '900' },
    timeout: { type: 'string', default: '60000' },
    'max-full': { type: 'string', default: '4000' },
    details: { type: 'boolean', default: false },
    sheet: { type: 'string' },
    before: { type: 'string' },
    after: { type: 'string' },
    'before-label': { type: 'string' },
    'after-label': { type: 'string' },
    scale: { type: 'string', default: '0.5' },
    'max-height': { type: 'string', default: '1800' },
    quality: { type: 'string', default: '70' },
  },
});
const launch = () => chromium.launch({
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
});
if (opts.sheet) {
  await contactSheet();
  process.exit(0);
}
if (!opts.root || !opts.out || files.length === 0) {
  console.error('usage: node scripts/screenshots.mjs --root WEB_DIR --out OUT_DIR [--width 1280 --height 900] FILE...');
  process.exit(2);
}
const root = resolve(opts.root);
if (!existsSync(join(root, 'gen', 'logscope.wasm'))) {
  console.error(`${root}/gen/logscope.wasm is missing: build the page's wasm first`);
  process.exit(2);
}
const out = resolve(opts.out);
mkdirSync(out, { recursive: true });
const viewport = { width: Number(opts.width), height: Number(opts.height) };
const timeout = Number(opts.timeout);

// Resolves once the page's DOM has not changed for `quietMs` (or after `maxMs`, returning false):
// late facts, tables and canvases settle without a selector for each of them.
async function quiet(page, quietMs = 700, maxMs = 15_000) {
  return page.evaluate(([quietMs, maxMs]) => new Promise((done) => {
    let timer;
    const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(finish, quietMs, true); });
    const finish = (ok) => { observer.disconnect(); clearTimeout(timer); clearTimeout(limit); done(ok); };
    const limit = setTimeout(finish, maxMs, false);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    timer = setTimeout(finish, quietMs, true);
  }), [quietMs, maxMs]);
}

// Waits for `fn` in the page; on timeout notes it and goes on (the screenshot shows what is there).
async function waitOr(page, notes, what, fn, arg) {
  try {
    await page.waitForFunction(fn, arg, { timeout });
  } catch {
    notes.push(`timed out waiting for ${what}`);
  }
}

// Until the page says no job runs (checksum, check, later facts) and its progress bar is gone.
async function settleJobs(page, notes) {
  await waitOr(page, notes, 'no job', () => !document.body.dataset.job);
  await waitOr(page, notes, 'progress hidden', () => document.querySelector('#progress')?.hidden !== false);
  await waitOr(page, notes, 'no data query', () => !document.body.dataset.dataQuery);
}

// A window-sized shot once jobs are done and the DOM is quiet, pointer out of the way.
async function shoot(page, entry, path) {
  await settleJobs(page, entry.notes);
  if (!await quiet(page)) entry.notes.push(`${basename(path)}: the DOM kept changing for 15 s`);
  await page.mouse.move(0, 0);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  entry.shots.push(path);
}

// What "settled" means per tab, beyond jobs and a quiet DOM.
const tabReady = {
  overview: async () => {},
  problems: async () => {},
  data: async (page, notes) => {
    await waitOr(page, notes, 'Data view loaded', () => !!document.querySelector('#panel-data')?.dataset.loaded);
  },
  explore: async (page, notes) => {
    await waitOr(page, notes, 'tree rows', () => document.querySelectorAll('#tree-slot .tree-row').length > 0);
    // Every byte cell shown holds a value, not the '··' of a range still being read.
    await waitOr(page, notes, 'hex bytes', () => {
      const cells = [...document.querySelectorAll('#hex-slot .b[data-offset]')].filter((b) => !b.closest('[hidden]'));
      return cells.length > 0 && cells.every((b) => b.textContent !== '··');
    });
  },
  // The timeline drawn, the first plot done (or nothing to plot) and a map's pass read.
  plots: async (page, notes) => {
    await waitOr(page, notes, 'timeline', () => !document.querySelector('#timeline-card') || document.querySelector('#timeline-card').dataset.loaded === 'true');
    await waitOr(page, notes, 'map', () => !document.querySelector('#map-card') || document.querySelector('#map-card').dataset.loaded === 'true');
    await waitOr(page, notes, 'plot', () => {
      const card = document.querySelector('#plot-card');
      return !card || ['done', 'error'].includes(card.dataset.state) || document.querySelector('#plot-source')?.disabled;
    });
  },
  extract: async () => {},
};

const server = serveStatic({ root, port: 0, log: false });
await new Promise((ok) => server.listening ? ok() : server.once('listening', ok));
const url = `http://127.0.0.1:${server.address().port}/?nodemo`;
const browser = await launch();

const run = { root, viewport, files: [] };
try {
  for (const file of files.map((f) => resolve(f))) {
    const name = basename(file);
    const entry = { file, state: null, errors: [], notes: [], shots: [] };
    run.files.push(entry);
    const context = await browser.newContext({ viewport, colorScheme: 'light', deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('pageerror', (error) => entry.errors.push(String(error)));
    page.on('console', (msg) => { if (msg.type() === 'error') entry.errors.push(msg.text()); });
    await page.goto(url);
    const t0 = Date.now();
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction((n) => document.body.dataset.fileName === n && ['summary', 'unknown', 'error', 'crashed'].includes(document.body.dataset.state), name, { timeout });
    entry.state = await page.evaluate(() => document.body.dataset.state);
    entry.openMs = Date.now() - t0;
    await settleJobs(page, entry.notes);
    if (entry.state !== 'summary') { // no tabs to show: the page as it is
      await shoot(page, entry, join(out, `${name}-0-${entry.state}.png`));
      await context.close();
      console.log(`${name}: ${entry.state}, no tabs`);
      continue;
    }
    for (const [i, tab] of TABS.entries()) {
      await page.click(`[data-tab="${tab}"]`);
      await page.waitForSelector(`#panel-${tab}:not([hidden])`);
      await tabReady[tab](page, entry.notes);
      await shoot(page, entry, join(out, `${name}-${i + 1}-${tab}.png`));
      // The page does not scroll, its tab panel does: when the panel holds more than the window
      // shows, a second shot in a window tall enough for all of it (at most --max-full px).
      const box = await page.$eval(`#panel-${tab}`, (el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
      entry.panels = { ...entry.panels, [tab]: box };
      if (box.scrollWidth > box.clientWidth) entry.notes.push(`${tab}: the panel is ${box.scrollWidth - box.clientWidth} px wider than the window (scrolls sideways)`);
      if (box.scrollHeight > box.clientHeight) {
        const height = Math.min(viewport.height + box.scrollHeight - box.clientHeight, Number(opts['max-full']));
        await page.setViewportSize({ width: viewport.width, height });
        await quiet(page);
        const full = join(out, `${name}-${i + 1}-${tab}-full.png`);
        await page.screenshot({ path: full, animations: 'disabled', caret: 'hide' });
        entry.shots.push(full);
        await page.setViewportSize(viewport);
        await quiet(page);
      }
    }
    if (opts.details) {
      await page.click('[data-tab="data"]');
      const row = page.locator('#panel-data tr[aria-expanded="false"]').first();
      if (await row.count()) {
        await row.click();
        await waitOr(page, entry.notes, 'decoded Data row', () => [...document.querySelectorAll('#panel-data tr.detail')].some((tr) => !tr.textContent.includes('Decoding…')));
        await shoot(page, entry, join(out, `${name}-7-data-record.png`));
      } else entry.notes.push('no expandable Data row');
      await page.click('[data-tab="explore"]');
      await page.locator('#tree-slot .tree-row .tree-label').nth(1).click();
      await waitOr(page, entry.notes, 'record of the node', () => !!document.querySelector('#record-tree, #record-slot .error-text'));
      await shoot(page, entry, join(out, `${name}-8-explore-record.png`));
    }
    await context.close();
    console.log(`${name}: ${entry.state}, ${entry.shots.length} screenshots${entry.errors.length ? `, ${entry.errors.length} page errors` : ''}${entry.notes.length ? `; ${entry.notes.join('; ')}` : ''}`);
  }
} finally {
  await browser.close();
  await new Promise((ok) => server.close(ok));
  writeFileSync(join(out, 'run.json'), JSON.stringify(run, null, 2) + '\n');
}

// One image: the four tabs of FILE_NAME as rows, --before left and --after right, each shot scaled
// by --scale and cut at --max-height pixels of the original (said under the cut). JPEG or PNG by
// the output's extension.
async function contactSheet() {
  const [name] = files;
  if (!name || !opts.before || !opts.after) {
    console.error('usage: node scripts/screenshots.mjs --sheet OUT.jpg --before DIR --after DIR FILE_NAME');
    process.exit(2);
  }
  const scale = Number(opts.scale), maxHeight = Number(opts['max-height']);
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
  const cell = (dir, i, tab) => {
    const shot = join(resolve(dir), `${name}-${i + 1}-${tab}`);
    const path = existsSync(`${shot}-full.png`) ? `${shot}-full.png` : `${shot}.png`;
    if (!existsSync(path)) return `<td class="missing">no ${esc(basename(path))}</td>`;
    const png = readFileSync(path);
    const width = png.readUInt32BE(16), height = png.readUInt32BE(20); // IHDR
    const shown = Math.min(height, maxHeight);
    const cut = height > shown ? `<div class="cut">cut: ${height - shown} px more below</div>` : '';
    return `<td><div class="shot" style="width:${Math.round(width * scale)}px;height:${Math.round(shown * scale)}px">`
      + `<img src="data:image/png;base64,${png.toString('base64')}" style="width:${Math.round(width * scale)}px"></div>${cut}</td>`;
  };
  const rows = TABS.map((tab, i) => `<tr><th>${esc(tab)}</th>${cell(opts.before, i, tab)}${cell(opts.after, i, tab)}</tr>`).join('');
  const html = `<!doctype html><meta charset="utf-8"><style>
    body { margin: 0; font: 14px system-ui, sans-serif; background: #fff; color: #222; }
    table { border-collapse: collapse; } td, th { vertical-align: top; padding: 6px; }
    th { writing-mode: vertical-rl; transform: rotate(180deg); font-size: 16px; }
    thead th { writing-mode: horizontal-tb; transform: none; text-align: left; }
    .shot { overflow: hidden; outline: 1px solid #999; } .cut { font-size: 12px; color: #a00; }
    .missing { color: #a00; }
  </style><table id="sheet"><thead><tr><th></th><th>before: ${esc(opts['before-label'] ?? opts.before)}</th><th>after: ${esc(opts['after-label'] ?? opts.after)}</th></tr></thead>`
    + `<caption style="text-align:left;padding:6px;font-weight:600">${esc(name)}</caption><tbody>${rows}</tbody></table>`;
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
    await page.setContent(html);
    await page.waitForFunction(() => [...document.images].every((img) => img.complete));
    const jpeg = /\.jpe?g$/i.test(opts.sheet);
    await page.locator('#sheet').screenshot({ path: opts.sheet, type: jpeg ? 'jpeg' : 'png', ...(jpeg ? { quality: Number(opts.quality) } : {}) });
    console.log(`${opts.sheet}: ${Math.round(statSync(opts.sheet).size / 1024)} KB`);
  } finally {
    await browser.close();
  }
}
