// Small things users notice: the theme switch (system, light, dark) applied at once and remembered,
// and table rows reached, moved through and opened from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { start, skipUnless, haveWasm, screenshot, openSettled, root } from './helpers.mjs';

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the theme switch overrides the system theme and is remembered', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage({ colorScheme: 'light' });
  const light = await background(page);
  assert.equal(await page.inputValue('#theme-select'), 'system');
  await page.selectOption('#theme-select', 'dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const dark = await background(page);
  assert.notEqual(dark, light, 'dark palette on a light system');
  await page.reload();
  assert.equal(await page.inputValue('#theme-select'), 'dark', 'remembered');
  assert.equal(await background(page), dark);
  await screenshot(page, 'theme-dark-on-light-system');
  await page.selectOption('#theme-select', 'system');
  assert.equal(await background(page), light, 'back to the system theme');
  await page.reload();
  assert.equal(await page.inputValue('#theme-select'), 'system');
  // A dark system with the light theme chosen stays light.
  const darkSystem = await env.newPage({ colorScheme: 'dark' });
  await darkSystem.selectOption('#theme-select', 'light');
  assert.equal(await background(darkSystem), light);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  await darkSystem.context().close();
});

test('table rows are reached, moved through and opened from the keyboard', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  await openSettled(page, join(root, 'web', 'gen', 'demo', 'husky_outdoor.bag'));
  const active = () => page.evaluate(() => {
    const row = document.activeElement.closest('tr');
    return row ? { index: [...row.parentElement.children].indexOf(row), table: row.closest('[data-table]')?.dataset.table ?? row.closest('table').id } : null;
  });
  // Overview: one tab stop per table, arrows move, Enter selects like a click.
  await page.focus('[data-table="topics"] tbody tr[tabindex="0"]');
  assert.deepEqual(await active(), { index: 0, table: 'topics' });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await active(), { index: 2, table: 'topics' });
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-table="topics"] tbody tr.selected').count(), 1);
  assert.equal(await page.locator('[data-table="topics"] tbody tr:nth-child(3)').getAttribute('aria-selected'), 'true');
  await page.keyboard.press('End');
  assert.equal((await active()).index, 7);
  assert.equal(await page.locator('[data-table="topics"] tbody tr[tabindex="0"]').count(), 1, 'still one tab stop');
  // Data: a message row opens with Enter.
  await page.click('#tab-data');
  await page.waitForSelector('#data-table tbody tr');
  await page.focus('#data-table tbody tr[tabindex="0"]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#data-table tbody tr[aria-expanded="true"]');
  assert.equal((await active()).index, 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a web app manifest with icons makes the app installable', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]');
    const response = await fetch(link.href);
    const json = await response.json();
    const icons = await Promise.all(json.icons.map(async (icon) => {
      const r = await fetch(new URL(icon.src, link.href));
      return { ...icon, ok: r.ok, svg: (await r.text()).startsWith('<svg') };
    }));
    return { ...json, icons };
  });
  assert.equal(manifest.short_name, 'logscope');
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, './', 'works under any sub-path');
  assert.ok(manifest.icons.some((i) => i.purpose === 'any') && manifest.icons.some((i) => i.purpose === 'maskable'));
  for (const icon of manifest.icons) assert.ok(icon.ok && icon.svg, `icon ${icon.src} is served`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
