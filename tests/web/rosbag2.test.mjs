// A rosbag2 database in the page: the view module detects it and the worker reads it in the full
// module (SQLite is not in the view module, docs/architecture.md "Two wasm modules"), which the
// page loads then. The summary and the check agree with `logscope info --json`/`check --json`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, cli, haveWasm, skipUnless, screenshot } from './helpers.mjs';

let env, dir, file;
before(async () => {
  if (!haveWasm) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-web-rosbag2-'));
  execFileSync(cli, ['make-demo-rosbag2', join(dir, 'bag'), '--size-mb', '1']);
  file = join(dir, 'bag', readdirSync(join(dir, 'bag')).find((n) => n.endsWith('.db3')));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a rosbag2 .db3 opens through the full module, with the CLI\'s counts and a clean check', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  /** @type {string[]} */
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
  await openSettled(page, file);
  assert.ok(wasm.includes('logscope.wasm'), 'the view module is loaded');
  assert.ok(wasm.includes('logscope-full.wasm'), 'the full module is loaded to read it');
  assert.match(await page.textContent('.format-pill'), /rosbag2/);
  const info = JSON.parse(execFileSync(cli, ['info', file, '--json'], { encoding: 'utf8' }));
  const messages = info.summary?.file?.counts?.messages;
  assert.ok(Number(messages) > 0, 'the CLI counts messages');
  const overview = await page.textContent('#panel-overview');
  assert.ok(overview.replace(/[,\u202f ]/g, '').includes(String(messages)), `the page shows ${messages} messages`);
  await page.click('#tab-problems');
  await screenshot(page, 'rosbag2-problems');
  await page.click('#tab-overview');
  await screenshot(page, 'rosbag2-overview');
  assert.deepEqual(page.errors, []);
});
