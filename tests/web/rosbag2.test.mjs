// A rosbag2 database in the page: the view module detects it and the worker reads it in the full
// module (SQLite is not in the view module, docs/architecture.md "Two wasm modules"), which the
// page loads then. The summary and the check agree with `logscope info --json`/`check --json`.
// A bag folder is one log (web/src/folder-open.js): chosen, dropped, a row of a batch, or
// ?url= of its metadata.yaml over a Range server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, cli, cliJson, haveWasm, skipUnless, screenshot, waitOpened, waitIdle, sample } from './helpers.mjs';
import { fileServer } from './servers.mjs';

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
  // The page compiles the view module for its workers as it starts (worker-client.js), before
  // this listener: its fetch is in the page's own resource timings.
  const fetchedByPage = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()));
  assert.ok(fetchedByPage.includes('logscope.wasm'), 'the view module is loaded');
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

// --- Bag folders (issue 27): a folder is one bag, chosen, dropped, in a batch, or by ?url= ---

// The topics table the page shows (the exact one once read), as {topic: count}.
const shownTopicCounts = (page) => page.$$eval('#tables-slot [data-table="topics"]:not([hidden]) tbody tr', (trs) =>
  Object.fromEntries(trs.map((tr) => [tr.children[0].textContent, Number(tr.children[2].dataset.value ?? tr.children[2].textContent.replace(/\D/g, ''))])));
// What the CLI says of a folder: `info --json`'s counts and its topics table.
function cliBag(path) {
  const info = JSON.parse(execFileSync(cli, ['info', path, '--json'], { encoding: 'utf8' }));
  const report = info.summary ?? info.report ?? info;
  const topics = report.tables.find((t) => t.name === 'topics');
  return { report, messages: Number(report.file.counts.messages), topics: Object.fromEntries(topics.rows.map((r) => [r[0], Number(r[2])])) };
}

test('a writer-made bag folder chosen with the folder chooser opens as one bag: the yaml\'s counts first, then the exact ones', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await page.setInputFiles('#folder-input', join(dir, 'bag'));
  assert.equal(await waitOpened(page, 'bag'), 'summary');
  assert.match(await page.textContent('.format-pill'), /rosbag2/);
  const want = cliBag(join(dir, 'bag'));
  assert.ok(want.messages > 0);
  // From the summary the page showed first (the full check that follows on a small bag replaces the report).
  const first = await page.evaluate(() => window.logscope.state.summary);
  assert.equal(first.facts.find((f) => f.key === 'counts_from')?.value, 'metadata.yaml', 'the first view says its per-topic counts are the yaml\'s');
  assert.deepEqual(first.later, ['topic_counts']);
  // The exact per-topic counts come by themselves (a local bag), and replace the table.
  await page.waitForSelector('#tables-slot [data-later="topic_counts"]', { timeout: 60_000 });
  assert.deepEqual(await shownTopicCounts(page), want.topics, 'the exact per-topic counts are the CLI\'s');
  await waitIdle(page);
  const overview = await page.textContent('#panel-overview');
  assert.ok(overview.replace(/[,\u202f ]/g, '').includes(String(want.messages)), `the page shows ${want.messages} messages`);
  await screenshot(page, 'rosbag2-folder-overview');
  await page.click('#tab-data');
  await page.waitForTimeout(500);
  await screenshot(page, 'rosbag2-folder-data');
  await page.click('#tab-problems');
  await page.waitForTimeout(300);
  await screenshot(page, 'rosbag2-folder-problems');
  // Structure & bytes: the bag's files, the first database's bytes in the hex view.
  await page.click('#tab-explore');
  await page.waitForSelector('#tree-slot .tree-row', { timeout: 60_000 });
  await page.waitForFunction(() => { const b = document.querySelector('#hex-slot .b[data-offset="0"]'); return b && b.textContent !== '··'; });
  assert.equal(await page.textContent('#hex-slot .b[data-offset="0"]'), '53', 'the first database starts "SQLite format 3"');
  await screenshot(page, 'rosbag2-folder-explore');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a yaml-less folder of MCAP splits named after it (run/run_0.mcap, run_1.mcap) chosen with the folder chooser opens as one bag of both files', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const run = join(dir, 'splits', 'run');
  mkdirSync(run, { recursive: true });
  execFileSync(cli, ['make-demo-cdr', join(run, 'run_0.mcap'), '--messages', '20'], { stdio: 'ignore' });
  execFileSync(cli, ['make-demo-cdr', join(run, 'run_1.mcap'), '--messages', '30'], { stdio: 'ignore' });
  const inFile = (name) => Number(cliJson('info', join(run, name), '--json').summary.file.counts.messages);
  const both = inFile('run_0.mcap') + inFile('run_1.mcap');
  const want = cliBag(run);
  assert.ok(inFile('run_0.mcap') > 0 && inFile('run_1.mcap') > inFile('run_0.mcap'));
  assert.equal(want.messages, both, 'the CLI reads the folder as one bag of both files');
  const page = await env.newPage();
  await page.setInputFiles('#folder-input', run);
  assert.equal(await waitOpened(page, 'run'), 'summary');
  assert.equal(await page.evaluate(() => document.body.dataset.batch ?? null), null, 'one log, not a batch of two files');
  assert.match(await page.textContent('.format-pill'), /rosbag2/);
  assert.match(await page.textContent('#file-sub'), /in a folder of 2 files/);
  await waitIdle(page);
  const summary = await page.evaluate(() => window.logscope.state.summary);
  assert.equal(Number(summary.file.counts.messages), both, 'the page counts the messages of both files');
  const overview = await page.textContent('#panel-overview');
  assert.ok(overview.replace(/[,\u202f ]/g, '').includes(String(both)), `the page shows ${both} messages`);
  await screenshot(page, 'rosbag2-mcap-splits-overview');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bag folder dropped on the page opens as one bag (its entries walked, never read whole)', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  const bagDir = join(dir, 'bag');
  const names = readdirSync(bagDir);
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { type: 'file', multiple: true, id: 'drop-source', hidden: true })));
  await page.setInputFiles('#drop-source', names.map((n) => join(bagDir, n)));
  // A drop of one folder as Chromium gives it: an item whose entry is a directory.
  await page.evaluate(() => {
    const files = [...document.querySelector('#drop-source').files];
    const fileEntry = (file) => ({ isFile: true, isDirectory: false, name: file.name, file: (ok) => ok(file) });
    const directory = {
      isFile: false, isDirectory: true, name: 'bag',
      createReader() { let done = false; return { readEntries(ok) { const some = done ? [] : files.map(fileEntry); done = true; setTimeout(() => ok(some)); } }; },
    };
    const dataTransfer = { items: [{ kind: 'file', webkitGetAsEntry: () => directory, getAsFile: () => null }], files: [], types: ['Files'] };
    const event = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
    window.dispatchEvent(event);
  });
  assert.equal(await waitOpened(page, 'bag'), 'summary');
  assert.match(await page.textContent('.format-pill'), /rosbag2/);
  const want = cliBag(bagDir);
  await page.waitForSelector('#tables-slot [data-later="topic_counts"]', { timeout: 60_000 });
  assert.deepEqual(await shownTopicCounts(page), want.topics);
  assert.equal(await page.evaluate(() => document.body.dataset.batch ?? null), null, 'no batch table');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('in a folder of many logs, each bag folder is one row that agrees with logscope check --json', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const field = join(dir, 'field');
  mkdirSync(field, { recursive: true });
  execFileSync(cli, ['make-demo-rosbag2', join(field, 'run_bag'), '--size-mb', '1'], { stdio: 'ignore' });
  execFileSync(cli, ['make-demo-rosbag', join(field, 'ros1.bag'), '--size-mb', '1'], { stdio: 'ignore' });
  writeFileSync(join(field, 'notes.txt'), 'not a log\n');
  const page = await env.newPage();
  await page.setInputFiles('#folder-input', field);
  await page.waitForFunction(() => document.body.dataset.batch === 'done', null, { timeout: 120_000 });
  const rows = await page.$$eval('#batch-table tbody tr', (trs) => trs.map((tr) => ({
    path: tr.dataset.path,
    verdict: tr.querySelector('td[data-col="verdict"]').dataset.value,
    size: Number(tr.querySelector('td[data-col="size"]').dataset.value),
    family: tr.querySelector('td[data-col="format"]').dataset.value ?? null,
    counts: tr.querySelector('td[data-col="contents"]').dataset.value ? JSON.parse(tr.querySelector('td[data-col="contents"]').dataset.value) : null,
  })));
  const lines = execFileSync(cli, ['check', '--recursive', '--json', 'field'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
  lines.pop();
  assert.deepEqual(rows.map((r) => r.path), lines.map((l) => l.path), 'the rows of check --recursive, the bag folder one of them');
  const bagRow = rows.find((r) => r.path === 'field/run_bag');
  const bagLine = lines.find((l) => l.path === 'field/run_bag');
  assert.equal(bagRow.family, 'rosbag2');
  assert.equal(bagRow.verdict, 'clean');
  assert.equal(bagRow.size, bagLine.size);
  assert.deepEqual(bagRow.counts, bagLine.report.file.counts);
  await screenshot(page, 'rosbag2-batch');
  // Its row opens the bag in the inspector.
  await page.click('#batch-table tbody tr[data-path="field/run_bag"]');
  assert.equal(await waitOpened(page, 'run_bag'), 'summary');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('?url= of a bag\'s metadata.yaml opens the bag by Range, relative to it, transferring under 5 %', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const served = join(dir, 'served');
  mkdirSync(served, { recursive: true });
  execFileSync(cli, ['make-demo-rosbag2', join(served, 'remote_bag'), '--size-mb', '40'], { stdio: 'ignore' });
  const db = join(served, 'remote_bag', 'remote_bag_0.db3');
  const size = statSync(db).size;
  const server = await fileServer(served, { range: true, cors: 'full' });
  try {
    const page = await env.newPage({ query: `?nodemo&url=${encodeURIComponent(`${server.url}remote_bag/metadata.yaml`)}` });
    await page.waitForFunction(() => ['summary', 'remote-problem', 'error', 'crashed', 'unknown'].includes(document.body.dataset.state), null, { timeout: 120_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'summary');
    const atSummary = server.stats.bytes;
    await page.evaluate(() => window.logscope.readStats());
    const sent = server.stats.bytes;
    console.log(`# remote bag folder: ${size} bytes; sent ${atSummary} at the summary, ${sent} once settled (${(100 * sent / size).toFixed(2)} %) in ${server.stats.requests} requests (${server.stats.full} whole)`);
    assert.match(await page.textContent('.format-pill'), /rosbag2/);
    assert.equal(server.stats.full, 1, 'only metadata.yaml is fetched whole');
    assert.ok(sent < size / 20, `transferred ${sent} bytes, ${(100 * sent / size).toFixed(2)} % of ${size}: must stay under 5 %`);
    const want = cliBag(join(served, 'remote_bag'));
    const overview = await page.textContent('#panel-overview');
    assert.ok(overview.replace(/[,\u202f ]/g, '').includes(String(want.messages)), `the page shows ${want.messages} messages`);
    assert.equal(await page.locator('#facts [data-key="topic_counts"] #load-topic_counts').count(), 1, 'the exact counts wait to be asked for');
    await screenshot(page, 'rosbag2-remote-folder');
    await page.click('#load-topic_counts');
    await page.waitForSelector('#tables-slot [data-later="topic_counts"]', { timeout: 120_000 });
    assert.deepEqual(await shownTopicCounts(page), want.topics);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.closeAll();
  }
});

// The page fetches the index pages the summary counts with (rosbag2/first_reads.cpp) a level at a
// time, several requests at once, instead of one SQLite page per round trip. Timed over the same
// server with no delay and with each answer 50 ms late, the difference over 50 ms is how many round
// trips the first view waits for one after another.
test('?url= of a bag\'s metadata.yaml shows its summary after a few round trips, not one per index page', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const served = join(dir, 'served-late');
  mkdirSync(served, { recursive: true });
  execFileSync(cli, ['make-demo-rosbag2', join(served, 'late_bag'), '--size-mb', '40'], { stdio: 'ignore' });
  const DELAY_MS = 50;
  const timeToSummary = async (delayMs) => {
    const server = await fileServer(served, { range: true, cors: 'full', delayMs });
    try {
      const page = await env.newPage({ query: `?nodemo&url=${encodeURIComponent(`${server.url}late_bag/metadata.yaml`)}` });
      const t0 = Date.now();
      await page.waitForFunction(() => ['summary', 'remote-problem', 'error', 'crashed', 'unknown'].includes(document.body.dataset.state), null, { timeout: 120_000 });
      const ms = Date.now() - t0;
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'summary');
      assert.deepEqual(page.errors, []);
      await page.context().close();
      return { ms, requests: server.stats.requests };
    } finally {
      await server.closeAll();
    }
  };
  await timeToSummary(0); // warm: modules compiled, files in the page cache
  const quick = await timeToSummary(0);
  const late = await timeToSummary(DELAY_MS);
  const rounds = (late.ms - quick.ms) / DELAY_MS;
  console.log(`# remote bag: summary after ${quick.ms} ms, ${late.ms} ms with ${DELAY_MS} ms round trips: ${rounds.toFixed(0)} round trips one after another, ${late.requests} requests`);
  assert.ok(rounds < 40, `${rounds.toFixed(0)} round trips one after another before the summary`);
});

test('the real bag folders of ../shared/samples/rosbag2 open as one bag each, with the CLI\'s counts', async (t) => {
  if (skipUnless(t, { cli: true, samples: true })) return;
  const root = sample('rosbag2');
  if (!existsSync(root)) return t.skip(`SKIPPED: ${root} is absent`);
  const page = await env.newPage();
  for (const name of readdirSync(root).filter((n) => statSync(join(root, n)).isDirectory())) {
    await page.setInputFiles('#folder-input', join(root, name));
    const state = await waitOpened(page, name);
    assert.equal(state, 'summary', `${name} opens`);
    const want = cliBag(join(root, name));
    const shown = await page.textContent('#panel-overview');
    assert.ok(shown.replace(/[,\u202f ]/g, '').includes(String(want.messages)), `${name}: the page shows ${want.messages} messages`);
    await waitIdle(page);
    if (name === 'ros2__rosbag2__wbag') {
      await screenshot(page, 'rosbag2-sample-split-overview');
      await page.click('#tab-problems');
      await screenshot(page, 'rosbag2-sample-split-problems');
      await page.click('#tab-overview');
    }
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('?url= of a real split bag\'s metadata.yaml reads its five databases by Range, with the CLI\'s counts', async (t) => {
  if (skipUnless(t, { cli: true, samples: true })) return;
  const root = sample('rosbag2');
  if (!existsSync(join(root, 'ros2__rosbag2__wbag'))) return t.skip(`SKIPPED: ${root} is absent`);
  const server = await fileServer(root, { range: true, cors: 'full' });
  try {
    const page = await env.newPage({ query: `?nodemo&url=${encodeURIComponent(`${server.url}ros2__rosbag2__wbag/metadata.yaml`)}` });
    await page.waitForFunction(() => ['summary', 'remote-problem', 'error', 'crashed', 'unknown'].includes(document.body.dataset.state), null, { timeout: 120_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'summary');
    const want = cliBag(join(root, 'ros2__rosbag2__wbag'));
    const report = await page.evaluate(() => window.logscope.state.summary);
    assert.equal(Number(report.file.counts.messages), want.messages);
    assert.equal(Number(report.file.counts.files), 5);
    assert.deepEqual(report.tables.find((tb) => tb.name === 'files').rows.map((r) => r[0]), ['wbag_0.db3', 'wbag_1.db3', 'wbag_2.db3', 'wbag_3.db3', 'wbag_4.db3']);
    // Small (under 8 MB): checked in full by itself, like a small local bag, with the CLI's problems.
    await page.waitForFunction(() => document.body.dataset.checked === 'true', null, { timeout: 120_000 });
    await waitIdle(page);
    const cliCheck = cliJson('check', '--json', join(root, 'ros2__rosbag2__wbag')); // exit status 1: it has problems
    const pageProblems = await page.evaluate(() => window.logscope.state.report.problems.map((p) => p.code).sort());
    assert.deepEqual(pageProblems, cliCheck.report.problems.map((p) => p.code).sort());
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.closeAll();
  }
});
