// The page under attack: logs whose topic, type, caller, map, blueprint, annotation and series
// names carry markup and script (made by our writers: tests/fixtures/make_markup_files.cpp).
// Every view shows them as text; no script runs, no element is made from them, and nothing is
// requested from another origin. The page's Content-Security-Policy reports no violation either.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, screenshot, root, haveWasm, skipUnless } from './helpers.mjs';

const maker = join(root, 'build', 'native', 'make_markup_files');
let env, dir;
before(async () => {
  if (!haveWasm || !existsSync(maker)) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-markup-'));
  execFileSync(maker, [dir]);
  env = await start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// What would exist or have happened had any name been parsed as HTML.
const damage = () => ({
  pwned: window.__pwned ?? null,
  elements: document.querySelectorAll('img[src*="evil"], [onerror], [onload], body script:not([src])').length,
  violations: window.__cspViolations ?? [],
});

for (const [name, needle] of [
  ['markup.bag', `/<img src="http://evil.invalid/x.png" onerror="window.__pwned='img'">`],
  ['markup.bddf', `<script>window.__pwned='script'</script>`],
  ['markup.log', `<img src="http://evil.invalid/x.png" onerror="window.__pwned='img'">`],
]) {
  test(`${name}: names with markup and script render as inert text in every tab; nothing loads from elsewhere`, async (t) => {
    if (skipUnless(t)) return;
    if (!existsSync(maker)) return t.skip('SKIPPED: build/native/make_markup_files is not built (bash scripts/build.sh)');
    const page = await env.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.evaluate(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await openSettled(page, join(dir, name));
    assert.ok((await page.textContent('body')).includes(needle), `the overview shows ${needle} as text`);
    for (const tab of ['#tab-problems', '#tab-data', '#tab-explore']) {
      await page.click(tab);
      await page.waitForTimeout(300);
      if (tab === '#tab-explore') {
        await page.waitForSelector('.tree-row');
        const rows = page.locator('.tree-row');
        for (let i = 0; i < Math.min(await rows.count(), 6); i++) await rows.nth(i).click();
        await page.waitForTimeout(300);
      }
      assert.deepEqual(await page.evaluate(damage), { pwned: null, elements: 0, violations: [] }, `after ${tab}`);
    }
    await page.click('#tab-overview');
    await screenshot(page, `markup-${name.replace('.', '-')}`);
    const elsewhere = requests.filter((u) => !u.startsWith(env.url) && !/^(blob|data):/.test(u));
    assert.deepEqual(elsewhere, [], 'every request stays on the page origin');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
