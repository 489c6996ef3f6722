// MCAP in the page's Extract & export tab: the format table's operations light up the repair and
// extract cards; what the job worker writes is byte for byte what `logscope repair` / `extract`
// write (uncompressed chunks: lz4 and zstd bytes may differ between the native and wasm32 builds),
// and @mcap/core's McapIndexedReader reads it. Files made by make-demo-mcap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, cli, haveWasm, haveCli, skipUnless } from './helpers.mjs';
import { indexedView, logscopeView } from '../node/mcap-support.mjs';

let env, dir;
const files = {};

before(async () => {
  if (!haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-extract-mcap-'));
  files.mcap = join(dir, 'rover.mcap');
  execFileSync(cli, ['make-demo-mcap', files.mcap, '--size-mb', '1', '--compression', 'none', '--chunk-kb', '64'], { stdio: 'ignore' });
  files.cut = join(dir, 'cut_rover.mcap');
  copyFileSync(files.mcap, files.cut);
  truncateSync(files.cut, Math.floor(statSync(files.mcap).size * 0.61));
  env = await start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(...args) {
  try {
    return { status: 0, out: execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }) };
  } catch (error) {
    return { status: error.status, out: String(error.stdout) };
  }
}

async function finished(page, name) {
  await page.waitForSelector('#output-result[data-state="done"], #output-result[data-state="failed"], #output-result[data-state="cancelled"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'done', await page.textContent('#output-result'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#output-download')]);
  assert.equal(download.suggestedFilename(), name);
  const path = join(dir, `page-${name}`);
  await download.saveAs(path);
  return path;
}

test('MCAP: a cut file is repaired in the page as `logscope repair` repairs it, and McapIndexedReader reads the copy', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openSettled(page, files.cut);
  await page.click('#recovery-slot .repair-offer');
  const path = await finished(page, 'cut_rover.repaired.mcap');
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  assert.match(await page.textContent('#output-dropped'), /mcap\.file\.truncated/);
  const reference = join(dir, 'cli-repaired.mcap');
  const cliRun = run('repair', files.cut, reference);
  assert.equal(cliRun.status, 0, cliRun.out);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope repair` writes');
  const kept = Number(/kept: (\d+) messages/.exec(cliRun.out)[1]);
  const indexed = await indexedView(path);
  assert.equal(indexed.messages.length, kept);
  assert.deepEqual(indexed.messages, logscopeView(path).messages);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('MCAP: every channel in a time range is extracted in the page as `logscope extract` writes it', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openSettled(page, files.mcap);
  await page.click('#tab-extract');
  assert.equal(await page.$('#extract-refused'), null, 'the format table says MCAP extracts');
  await page.fill('#extract-from', '2');
  await page.fill('#extract-to', '5.5');
  await page.click('#extract-run');
  const path = await finished(page, 'rover.extract.mcap');
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  const reference = join(dir, 'cli-extract.mcap');
  assert.equal(run('extract', files.mcap, reference, '--from', '+2', '--to', '+5.5').status, 0);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope extract` writes');
  const indexed = await indexedView(path);
  assert.ok(indexed.messages.length > 100);
  assert.deepEqual(indexed.messages, logscopeView(path).messages);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('MCAP: every topic is a checkbox; the chosen ones in a time range are extracted as `logscope extract --topics` writes them, and only their channels', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openSettled(page, files.mcap);
  await page.click('#tab-extract');
  const boxes = page.locator('#extract-topics input[type="checkbox"]');
  const listed = await boxes.evaluateAll((inputs) => inputs.map((i) => i.value));
  const channels = logscopeView(files.mcap).channels;
  assert.deepEqual([...listed].sort(), [...new Set(channels.map((c) => c.topic))].sort(), 'every topic of the file, whatever its encoding');
  const chosen = ['/imu', '/rosout'];
  assert.ok(chosen.every((topic) => listed.includes(topic)), `the demo has ${chosen.join(' and ')}: ${listed.join(', ')}`);
  await page.click('#extract-topics legend button:has-text("none")');
  for (const topic of chosen) await page.check(`#extract-topics input[value="${topic}"]`);
  await page.fill('#extract-from', '1');
  await page.fill('#extract-to', '4');
  await page.click('#extract-run');
  const path = await finished(page, 'rover.extract.mcap');
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  const reference = join(dir, 'cli-extract-topics.mcap');
  const cliRun = run('extract', files.mcap, reference, '--topics', chosen.join(','), '--from', '+1', '--to', '+4');
  assert.equal(cliRun.status, 0, cliRun.out);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope extract --topics` writes');
  // Only the chosen topics' channels, by @mcap/core's indexed reader and by `logscope check`.
  const indexed = await indexedView(path);
  assert.deepEqual([...new Set(indexed.channels.map((c) => c.topic))].sort(), chosen);
  const ids = new Set(indexed.channels.map((c) => c.id));
  assert.ok(indexed.messages.length > 10 && indexed.messages.every((m) => ids.has(m.channel)));
  const start = BigInt(readStart(files.mcap));
  assert.ok(indexed.messages.every((m) => BigInt(m.log_time) >= start + 1_000_000_000n && BigInt(m.log_time) <= start + 4_000_000_000n), 'every message in [+1 s, +4 s]');
  assert.deepEqual(indexed.messages, logscopeView(path).messages);
  const check = run('check', path);
  assert.equal(check.status, 0, check.out);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The first message's log time (the summary's start), in ns.
function readStart(path) {
  return JSON.parse(run('info', path, '--json').out).summary.file.start_ns;
}
