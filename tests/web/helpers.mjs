// Shared setup for the browser tests: the static server, headless Chromium, the CLI, samples.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// LOGSCOPE_SAMPLES: the samples elsewhere than beside the checkout (a worktree of it).
export const samples = process.env.LOGSCOPE_SAMPLES ? resolve(process.env.LOGSCOPE_SAMPLES) : resolve(root, '..', 'shared', 'samples');
export const cli = join(root, 'build', 'native', 'logscope');
export const shots = join(root, 'test-results', 'screenshots');
mkdirSync(shots, { recursive: true });

export const haveSamples = existsSync(samples);
export const haveWasm = existsSync(join(root, 'web', 'gen', 'logscope.mjs')) && existsSync(join(root, 'web', 'gen', 'logscope.wasm'));
export const haveCli = existsSync(cli);

export function sample(...parts) { return join(samples, ...parts); }

// Files made by the project's own writers at build time (scripts/make-demos.sh): tests that need a
// realistic file but compare nothing against a real one use these, so they run on a fresh clone.
export const demoDir = join(root, 'web', 'gen', 'demo');
export function demo(name) { return join(demoDir, name); }
export const haveDemos = ['husky_outdoor.bag', 'spot_walk.bddf', 'town03_intersection.log'].every((n) => existsSync(demo(n)));

// Starts the server and the browser; returns {url, browser, newPage(options), close()}.
export async function start() {
  const server = serveStatic({ root: join(root, 'web'), port: 0, log: false });
  await new Promise((ok) => server.listening ? ok() : server.once('listening', ok));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  const pages = [];
  return {
    url,
    browser,
    async newPage({ colorScheme = 'light', query = '?nodemo', viewport = { width: 1440, height: 900 } } = {}) {
      const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (error) => page.errors.push(String(error)));
      page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
      await page.goto(url + query);
      pages.push(page);
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

// Gives the page a file through the file input, like a user picking it.
export async function openFile(page, path) {
  await page.setInputFiles('#file-input', path);
}

// Waits until the page has finished opening `name`: summary shown, unknown format, or an error.
export async function waitOpened(page, name, { timeout = 60_000 } = {}) {
  await page.waitForFunction((n) => document.body.dataset.fileName === n && ['summary', 'unknown', 'error', 'crashed', 'silent'].includes(document.body.dataset.state), name, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

// Waits until no long job (checksum, check) runs any more.
export async function waitIdle(page, { timeout = 120_000 } = {}) {
  await page.waitForFunction(() => !document.body.dataset.job, null, { timeout });
}

// Gives the page a file, expects its summary, and waits until no job runs any more.
export async function openSettled(page, path) {
  await openFile(page, path);
  assert.equal(await waitOpened(page, basename(path)), 'summary');
  await waitIdle(page);
}

// Skips a test, saying why, unless what it needs is there: always the wasm build; on request the
// writer-made demo files, the shared samples (only for comparisons with real files) and the CLI. Returns true when it skipped.
export function skipUnless(t, { samples = false, cli = false, demos = false } = {}) {
  if (!haveWasm) return t.skip('SKIPPED: web/gen/logscope.mjs is not built (bash scripts/build.sh)'), true;
  if (demos && !haveDemos) return t.skip('SKIPPED: no writer-made files in web/gen/demo (scripts/make-demos.sh)'), true;
  if (samples && !haveSamples) return t.skip('SKIPPED: ../shared/samples is absent'), true;
  if (cli && !haveCli) return t.skip('SKIPPED: build/native/logscope is not built'), true;
  return false;
}

// The CLI's JSON output; the exit status says "problems" or "unknown" too, so stdout is used either way.
export function cliJson(...args) {
  let out;
  try {
    out = execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    out = error.stdout;
  }
  return JSON.parse(out);
}

export async function screenshot(page, name) {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

export const formatCount = (n) => n.toLocaleString('en-US');

// Drags on the timeline from `from` to `to` (fractions of its width); returns the selected range
// as the page records it, {t0, t1} in ns (decimal text).
export async function brushTimeline(page, from, to) {
  await page.locator('#timeline-canvas').scrollIntoViewIfNeeded();
  const box = await page.locator('#timeline-canvas').boundingBox();
  await page.mouse.move(box.x + box.width * from, box.y + 5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * (from + to) / 2, box.y + 8);
  await page.mouse.move(box.x + box.width * to, box.y + 10);
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('#timeline-selection').dataset.t0Ns);
  return { t0: await page.getAttribute('#timeline-selection', 'data-t0-ns'), t1: await page.getAttribute('#timeline-selection', 'data-t1-ns') };
}

// The Data tab's first message of `topic` (a row of #data-channel starting with it), expanded
// with every nested node open: its text.
export async function firstMessageDetail(page, topic) {
  const value = await page.$eval('#data-channel', (select, t) => [...select.options].find((o) => o.textContent.startsWith(`${t} `))?.value, topic);
  await page.selectOption('#data-channel', value);
  await page.waitForFunction((t) => [...document.querySelectorAll('#data-table tbody tr:not(.detail)')].every((tr) => tr.dataset.topic === t), topic);
  await page.locator('#data-table tbody tr').first().click();
  await page.waitForSelector('#data-table tr.detail .rv-key');
  // Nested messages open on demand: open every node of the first message.
  for (let round = 0; round < 4; round++) {
    await page.evaluate(() => { for (const d of document.querySelectorAll('#data-table tr.detail details.rv-node')) d.open = true; });
    await page.waitForTimeout(100);
  }
  return page.textContent('#data-table tr.detail');
}
