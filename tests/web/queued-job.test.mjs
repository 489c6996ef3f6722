// Two passes of the job worker at once (web/src/progress.js): it answers one request at a time,
// so a pass asked for while another runs waits behind it. The bar says so, with the earlier
// pass's progress, then shows the later pass's own; the earlier pass ending does not hide it.
// A remote CARLA log above the size whose check starts by itself, served a little late: its actor
// map (Timeline & plots) is a query of the job worker that reads the log twice (its frames, then
// the paths), so it waits to be asked. The full check asked for meanwhile waits behind it, and
// both finish.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, cli, haveWasm, haveCli, skipUnless, screenshot } from './helpers.mjs';
import { fileServer } from './servers.mjs';

let env, dir, files;

before(async () => {
  if (!haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-queued-job-'));
  execFileSync(cli, ['make-demo-carla', join(dir, 'long.log'), '--size-mb', '24'], { stdio: 'ignore' });
  files = await fileServer(dir, { range: true, cors: 'full', delayMs: 400 });
  env = await start();
});
after(async () => {
  await env?.close();
  await files?.closeAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a check asked for while the actor map reads says what it waits for, then runs: both finish', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ query: `?nodemo&url=${encodeURIComponent(`${files.url}long.log`)}` });
  await page.waitForFunction(() => ['summary', 'remote-problem', 'error', 'crashed', 'unknown'].includes(document.body.dataset.state), null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'summary');
  // Every state the bar goes through, as the page shows it.
  await page.evaluate(() => {
    const bar = /** @type {HTMLElement} */ (document.querySelector('#progress'));
    const seen = window.barSeen = [];
    const note = () => {
      const entry = `${bar.dataset.state} | ${bar.dataset.phase ?? ''} | ${bar.querySelector('.progress-label')?.textContent ?? ''} | ${bar.querySelector('.progress-text')?.textContent?.replace(/ · .*/, '') ?? ''}`;
      if (seen[seen.length - 1] !== entry) seen.push(entry);
    };
    new MutationObserver(note).observe(bar, { attributes: true, childList: true, subtree: true, characterData: true });
  });
  await page.click('#tab-plots');
  // A big remote log's map waits to be asked: it reads the whole log again.
  await page.waitForSelector('#map-load');
  assert.match(await page.textContent('#map-note'), /^Drawing the map reads the whole log again, up to 48\.0 MiB from the server\./);
  assert.equal(await page.evaluate(() => window.logscope.jobsClient().pending.size), 0, 'nothing asked of the job worker yet');
  await page.click('#map-load');
  // The map's query reads the log twice in the job worker (a scan of its frames, then the paths).
  await page.waitForFunction(() => document.querySelector('#progress .progress-label')?.textContent === 'Reading every actor\'s path'
    && / of 24\.0 MiB/.test(document.querySelector('#progress .progress-text')?.textContent ?? ''), null, { timeout: 60_000, polling: 20 });
  await page.click('#tab-problems');
  await page.waitForSelector('#run-check:not([disabled])');
  const mapStillReading = await page.evaluate(() => document.querySelector('#map-card')?.dataset.loaded !== 'true');
  await page.click('#run-check');
  await page.waitForFunction(() => document.querySelector('#progress')?.dataset.phase === 'waiting', null, { timeout: 30_000 }).catch(() => {});
  await screenshot(page, 'queued-check-waiting');
  await page.waitForFunction(() => window.logscope.state.checked === true, null, { timeout: 120_000 });
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelector('#map-card')?.dataset.loaded === 'true', null, { timeout: 60_000 });
  const seen = await page.evaluate(() => window.barSeen);
  t.diagnostic(seen.join('\n'));
  assert.ok(mapStillReading, 'the check was asked for while the map was still reading');
  assert.ok(seen.some((s) => /^running \| waiting \| Checking every record \| waiting for “Reading every actor's path” to finish/.test(s)), 'the check says what it waits for');
  const waited = seen.findIndex((s) => s.includes('| Checking every record | waiting'));
  // (Its first report may be its last: a remote pass reads ahead, four ranges at a time.)
  assert.ok(seen.slice(waited).some((s) => /^running \| pass \| Checking every record \| [\d.]+ (?:[KM]i)?B of /.test(s)), 'then the check shows its own progress');
  assert.equal(await page.evaluate(() => window.logscope.state.report?.problems?.filter((p) => p.severity === 'error').length), 0);
  assert.deepEqual(page.errors, []);
});
