// Many files at once (issue 15): a folder or a pile of files dropped on the page fills a table,
// one row per file, that agrees with `logscope check --json` for every file, and with
// `logscope check --recursive` on the folder for the verdicts, the order and the totals. The
// fixtures are made by our writers; the same comparison runs on ../shared/samples when present.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { start, cli, cliJson, samples, haveWasm, haveCli, skipUnless, screenshot, waitOpened } from './helpers.mjs';

const MARKUP_NAME = '<img src=x onerror="window.__pwned=1">.txt';
let env, work, field;

// field-day/: clean and damaged logs of every format, a text file, an empty bag, a sub-folder.
function makeFixtures() {
  work = mkdtempSync(join(tmpdir(), 'logscope-batch-'));
  field = join(work, 'field-day');
  mkdirSync(join(field, 'damaged'), { recursive: true });
  const make = (...args) => execFileSync(cli, args, { stdio: 'ignore' });
  const at = (...parts) => join(field, ...parts);
  make('make-demo-rosbag', at('clean_v20_lz4.bag'), '--size-mb', '1', '--compression', 'lz4');
  make('make-demo-rosbag', at('old_v12.bag'), '--size-mb', '1', '--version', '1.2');
  make('make-demo-bddf', at('spot.bddf'), '--size-mb', '1');
  make('make-demo-carla', at('town03.log'), '--size-mb', '1');
  const cut = (from, to, fraction) => { const bytes = readFileSync(at(from)); writeFileSync(at(to), bytes.subarray(0, Math.floor(bytes.length * fraction))); };
  cut('clean_v20_lz4.bag', join('damaged', 'cut.bag'), 0.6);
  cut('town03.log', join('damaged', 'cut_town03.log'), 0.55);
  cut('spot.bddf', join('damaged', 'cut_spot.bddf'), 0.5);
  const flipped = readFileSync(at('spot.bddf'));
  flipped[flipped.length >> 1] ^= 0xff; // inside a data block: the stored SHA1 no longer matches
  writeFileSync(at('damaged', 'flipped.bddf'), flipped);
  writeFileSync(at('damaged', 'empty.bag'), '');
  writeFileSync(at('notes.txt'), 'Field day, run 3: the robot fell over at 10:32.\n');
  writeFileSync(at(MARKUP_NAME), 'not a log either\n');
}

before(async () => {
  if (!haveWasm || !haveCli) return;
  makeFixtures();
  env = await start();
});
after(async () => {
  await env?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// What the CLI says, run from the folder's parent so its paths are the page's.
function cliRun(cwd, ...args) {
  try { return execFileSync(cli, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] }); } catch (error) { return error.stdout; }
}
// path -> verdict, from the text lines of `check --recursive` ("a/b.bag: ..., clean").
function cliVerdicts(cwd, folder, paths) {
  const text = cliRun(cwd, 'check', '--recursive', folder);
  const verdicts = {};
  for (const line of text.split('\n')) {
    const path = paths.find((p) => line.startsWith(`${p}: `));
    if (!path) continue;
    const m = /^: (unreadable) - |, (clean|problems|unreadable|not a log)(?: - .*)?$/.exec(line.slice(path.length));
    assert.ok(m, `a verdict in ${line}`);
    verdicts[path] = (m[1] || m[2]).replace('not a log', 'not-log');
  }
  return verdicts;
}

// What the row should show, from `logscope check FILE --json`.
function expectedRow(cwd, path) {
  const out = cliJson('check', '--json', join(cwd, path));
  const r = out.report;
  const version = r?.facts.find((f) => f.key === 'version')?.value;
  return {
    size: out.size,
    format: r?.format_label || out.detection.label,
    family: out.detection.family,
    version: version === undefined || version === null || String(version) === '' ? null : String(version),
    durationNs: r?.file.duration_ns ?? null,
    counts: r && Object.keys(r.file.counts).length ? r.file.counts : null,
    health: r ? Object.fromEntries(['error', 'warning', 'info'].map((s) => [s, r.problems.filter((p) => p.severity === s).length])) : null,
    checksum: r?.details?.checksum?.status ?? null,
    diagnosis: out.detection.diagnosis,
  };
}

// The table as the page shows it, from the cells' raw values.
const tableRows = (page) => page.$$eval('#batch-table tbody tr', (trs) => trs.map((tr) => {
  const cell = (key) => tr.querySelector(`td[data-col="${key}"]`);
  const health = cell('health').dataset;
  return {
    path: tr.dataset.path,
    verdict: cell('verdict').dataset.value,
    exit: cell('verdict').dataset.exit,
    size: Number(cell('size').dataset.value),
    format: cell('format').dataset.label ?? null,
    family: cell('format').dataset.value ?? null,
    version: cell('version').dataset.value ?? null,
    durationNs: cell('duration').dataset.value ?? null,
    counts: cell('contents').dataset.value ? JSON.parse(cell('contents').dataset.value) : null,
    health: health.errors === undefined ? null : { error: Number(health.errors), warning: Number(health.warnings), info: Number(health.notes) },
    checksum: cell('checksum').dataset.value ?? null,
    note: cell('note').textContent,
  };
}));

async function waitBatch(page, state = 'done', timeout = 300_000) {
  await page.waitForFunction((s) => document.body.dataset.batch === s, state, { timeout });
}

// Every row against `check --json` for its file, the verdicts and the order against `check
// --recursive` on the folder; returns the rows.
// except: a path prefix whose files are left out of the comparison, with the totals and the export
// (files the page and the CLI list differently).
async function compareWithCli(page, cwd, folder, { except = null } = {}) {
  const kept = (/** @type {string} */ path) => !except || !path.startsWith(except);
  const rows = (await tableRows(page)).filter((r) => kept(r.path));
  const lines = cliRun(cwd, 'check', '--recursive', '--json', folder).trim().split('\n').map((l) => JSON.parse(l));
  const cliTotals = lines.pop().totals;
  if (except) {
    const cliLines = lines.filter((l) => kept(l.path));
    assert.deepEqual(rows.map((r) => r.path), cliLines.map((l) => l.path), 'the files, in the order of check --recursive');
    const verdicts = cliVerdicts(cwd, folder, rows.map((r) => r.path));
    for (const row of rows) assert.equal(row.verdict, verdicts[row.path], `${row.path}: verdict`);
    return rows;
  }
  assert.deepEqual(rows.map((r) => r.path), lines.map((l) => l.path), 'the files, in the order of check --recursive');
  const verdicts = cliVerdicts(cwd, folder, rows.map((r) => r.path));
  for (const row of rows) {
    const want = expectedRow(cwd, row.path);
    const got = { ...row };
    assert.equal(got.verdict, verdicts[row.path], `${row.path}: verdict`);
    assert.equal(got.exit, { clean: '0', problems: '1', unreadable: '2', 'not-log': '' }[got.verdict], `${row.path}: exit status`);
    if (want.family === 'unknown') assert.equal(got.note, `${got.verdict === 'not-log' ? 'not a log' : 'unreadable'}: ${want.diagnosis}`, `${row.path}: says why it is no log`);
    delete got.path; delete got.verdict; delete got.exit; delete got.note; delete want.diagnosis;
    assert.deepEqual(got, want, `${row.path}: the row agrees with logscope check --json`);
  }
  const totals = await page.$$eval('#batch-totals [data-total]', (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.total, n.dataset.value ?? n.textContent])));
  assert.equal(totals.clean, `${cliTotals.clean} clean`);
  assert.equal(totals.problems, `${cliTotals.problems} with problems`);
  assert.equal(totals.unreadable, `${cliTotals.unreadable} unreadable`);
  assert.equal(totals.not_logs, `${cliTotals.not_logs} not logs`);
  assert.equal(totals.exit, String(cliTotals.exit_status));
  // Export: JSON Lines equal to check --recursive --json, line for line.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-jsonl')]);
  const exportedText = readFileSync(await download.path(), 'utf8');
  const exported = exportedText.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(exported, [...lines, { totals: cliTotals }], 'the JSON Lines export is check --recursive --json');
  assert.equal(exportedText, cliRun(cwd, 'check', '--recursive', '--json', folder), 'to the byte');
  return rows;
}

const damage = () => ({ pwned: window.__pwned ?? null, elements: document.querySelectorAll('img[onerror], [onerror]').length });

test('a folder of logs: every row agrees with logscope check --json, the export with check --recursive --json', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await page.setInputFiles('#folder-input', field);
  await waitBatch(page);
  assert.equal(await page.isVisible('#batch'), true);
  assert.equal(await page.isVisible('#workspace'), false);
  const rows = await compareWithCli(page, work, 'field-day');
  assert.equal(rows.length, 11);
  const by = Object.fromEntries(rows.map((r) => [basename(r.path), r]));
  assert.equal(by['flipped.bddf'].checksum, 'mismatch');
  assert.equal(by['spot.bddf'].checksum, 'valid');
  assert.equal(by['empty.bag'].verdict, 'unreadable', 'an empty file with a log name');
  assert.equal(by['notes.txt'].verdict, 'not-log');
  assert.match(by['notes.txt'].note, /^not a log: This is a text file/);
  assert.equal(by[MARKUP_NAME].path, `field-day/${MARKUP_NAME}`, 'a name with markup is text');
  assert.deepEqual(await page.evaluate(damage), { pwned: null, elements: 0 });
  // CSV: a header and one line per file, the path quoted where it must be.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\r\n');
  assert.equal(csv[0], 'path,size_bytes,format,family,version,start_ns,duration_ns,counts,errors,warnings,notes,checksum,verdict,exit_status,note');
  assert.equal(csv.length, 12);
  assert.ok(csv.includes(csv.find((l) => l.startsWith('field-day/damaged/flipped.bddf,') && l.includes(',mismatch,problems,1,'))), 'the damaged BDDF line');
  assert.ok(csv.some((l) => l.startsWith(`"field-day/${MARKUP_NAME.replace(/"/g, '""')}",`)), 'quotes doubled in a quoted cell');
  await screenshot(page, 'batch-table-light');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const dark = await env.newPage({ colorScheme: 'dark' });
  await dark.setInputFiles('#folder-input', field);
  await waitBatch(dark);
  await dark.click('th[data-col="health"] button');
  await screenshot(dark, 'batch-table-dark');
  await dark.context().close();
});

test('many files dropped at once fill the table; a text file is "not a log", never a crash', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  const names = ['town03.log', 'notes.txt', 'spot.bddf', 'old_v12.bag', join('damaged', 'cut.bag'), join('damaged', 'flipped.bddf')];
  // A drop as the browser makes it: a DataTransfer with the files, on the window.
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { type: 'file', multiple: true, id: 'drop-source', hidden: true })));
  await page.setInputFiles('#drop-source', names.map((n) => join(field, n)));
  await page.evaluate(() => {
    const data = new DataTransfer();
    for (const file of document.querySelector('#drop-source').files) data.items.add(file);
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await waitBatch(page);
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r.path), names.map((n) => basename(n)), 'the order given; paths are the names');
  for (const row of rows) {
    const want = expectedRow(field, names.find((n) => basename(n) === row.path));
    assert.equal(row.size, want.size);
    assert.equal(row.format, want.format);
    assert.deepEqual(row.health, want.health, `${row.path}: problems by severity`);
  }
  assert.deepEqual(rows.map((r) => r.verdict), ['clean', 'not-log', 'clean', 'clean', 'problems', 'problems']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the table sorts, filters, moves with the keyboard, opens a file and comes back', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await page.setInputFiles('#folder-input', field);
  await waitBatch(page);
  const column = (key) => page.$$eval(`#batch-table tbody td[data-col="${key}"]`, (tds) => tds.map((td) => td.dataset.value ?? null));
  await page.click('th[data-col="size"] button');
  const sizes = (await column('size')).map(Number);
  assert.deepEqual(sizes, [...sizes].sort((a, b) => a - b), 'by size, smallest first');
  assert.equal(await page.getAttribute('th[data-col="size"]', 'aria-sort'), 'ascending');
  await page.click('th[data-col="size"] button');
  assert.deepEqual((await column('size')).map(Number), [...sizes].sort((a, b) => b - a), 'then largest first');
  // Only the damaged files; then a name filter within them.
  await page.click('[data-filter="damaged"]');
  const damaged = await column('verdict');
  assert.equal(damaged.length, 5);
  assert.ok(damaged.every((v) => v === 'problems' || v === 'unreadable'));
  await page.fill('.batch-search', 'bddf');
  assert.deepEqual((await tableRows(page)).map((r) => basename(r.path)).sort(), ['cut_spot.bddf', 'flipped.bddf']);
  await page.fill('.batch-search', '');
  await page.click('[data-filter="all"]');
  await page.click('th[data-col="name"] button');
  // Keyboard: the first row, down twice, Enter opens that file in the inspector.
  await page.focus('#batch-table tbody tr:first-child');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const chosen = await page.evaluate(() => document.activeElement.dataset.path);
  assert.equal(chosen, 'field-day/damaged/cut.bag');
  await page.keyboard.press('Enter');
  assert.equal(await waitOpened(page, 'cut.bag'), 'summary');
  assert.equal(await page.isVisible('#batch'), false);
  assert.equal(await page.isVisible('#workspace'), true);
  assert.equal(await page.textContent('#batch-back-button'), '← All 11 files');
  await page.waitForFunction(() => !document.body.dataset.job, null, { timeout: 60_000 });
  await screenshot(page, 'batch-opened-file');
  // Back: the table as it was (sorted by name), the focus on the file that was opened.
  await page.click('#batch-back-button');
  assert.equal(await page.isVisible('#batch'), true);
  assert.equal(await page.getAttribute('th[data-col="name"]', 'aria-sort'), 'ascending');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), chosen);
  // A click opens a row too.
  await page.click('#batch-table tbody tr[data-path="field-day/town03.log"]');
  assert.equal(await waitOpened(page, 'town03.log'), 'summary');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Cancel stops the check; the files not checked stay so until asked', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const folder = join(work, 'many-bags');
  mkdirSync(folder, { recursive: true });
  execFileSync(cli, ['make-demo-rosbag', join(folder, 'bag_00.bag'), '--size-mb', '8', '--compression', 'lz4'], { stdio: 'ignore' });
  for (let i = 1; i < 12; i++) copyFileSync(join(folder, 'bag_00.bag'), join(folder, `bag_${String(i).padStart(2, '0')}.bag`));
  const page = await env.newPage({ query: '?nodemo&cores=1' }); // one worker: the check takes a while
  await page.setInputFiles('#folder-input', folder);
  await waitBatch(page, 'running', 60_000);
  await page.waitForSelector('#batch-table tr[data-state="checking"]');
  await screenshot(page, 'batch-running');
  await page.click('#batch-action');
  await waitBatch(page, 'cancelled', 60_000);
  const states = await page.$$eval('#batch-table tbody tr', (trs) => trs.map((tr) => tr.dataset.state));
  const done = states.filter((s) => s === 'done').length;
  assert.ok(done < 12 && states.filter((s) => s === 'not-checked').length === 12 - done, `cancelled with ${done} of 12 checked`);
  assert.match(await page.textContent('#batch-action'), new RegExp(`^Check the other ${12 - done} files$`));
  await screenshot(page, 'batch-cancelled');
  await page.click('[data-filter="pending"]');
  assert.equal((await tableRows(page)).length, 12 - done);
  await page.click('[data-filter="all"]');
  await page.click('#batch-action');
  await waitBatch(page);
  assert.deepEqual([...new Set((await tableRows(page)).map((r) => r.verdict))], ['clean']);
  assert.equal(await page.isVisible('#batch-action'), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a worker that stops on one file: that row is unreadable and says why, the others are checked', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  // The worker checking spot.bddf dies (an uncaught error, as a bug or a trap would cause).
  await page.evaluate(async () => {
    const { WorkerClient } = await import('./src/worker-client.js');
    const call = WorkerClient.prototype.call;
    WorkerClient.prototype.call = function (op, args, options) {
      if (op === 'checkFile' && args.path.endsWith('/spot.bddf')) this.worker.postMessage({ id: -1, op: '__crash__' });
      return call.call(this, op, args, options);
    };
  });
  await page.setInputFiles('#folder-input', field);
  await waitBatch(page);
  const rows = await tableRows(page);
  assert.equal(rows.length, 11);
  const spot = rows.find((r) => r.path === 'field-day/spot.bddf');
  assert.equal(spot.verdict, 'unreadable');
  assert.match(spot.note, /^the inspector stopped while checking it \(.*simulated worker crash\)$/);
  const others = rows.filter((r) => r !== spot);
  assert.ok(others.every((r) => r.verdict && r.format), 'every other file checked');
  assert.equal(others.find((r) => r.path === 'field-day/town03.log').verdict, 'clean');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-jsonl')]);
  const line = readFileSync(await download.path(), 'utf8').split('\n').map((l) => l && JSON.parse(l)).find((l) => l.path === spot.path);
  assert.deepEqual(Object.keys(line), ['path', 'error'], 'the CLI\'s line for a file it cannot read');
  await page.context().close();
});

test('600 files: a few workers, at most 500 rows drawn at a time', async (t) => {
  if (skipUnless(t)) return;
  const folder = join(work, 'pile');
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < 600; i++) writeFileSync(join(folder, `note_${String(i).padStart(3, '0')}.txt`), `note ${i}\n`);
  const page = await env.newPage();
  await page.evaluate(() => {
    window.__workers = 0;
    const Original = window.Worker;
    window.Worker = class extends Original { constructor(...args) { super(...args); window.__workers++; } };
  });
  await page.setInputFiles('#folder-input', folder);
  await waitBatch(page, 'done', 120_000);
  const workers = await page.evaluate(() => window.__workers);
  assert.ok(workers >= 1 && workers <= 4, `${workers} workers for 600 files`);
  assert.equal(await page.locator('#batch-table tbody tr').count(), 500);
  assert.equal(await page.textContent('.batch-more'), 'Show 100 more of 100');
  await page.click('.batch-more');
  assert.equal(await page.locator('#batch-table tbody tr').count(), 600);
  assert.equal(await page.textContent('#batch-totals [data-total="not_logs"]'), '600 not logs');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a dropped folder is walked depth first in name order, in pieces, unreadable files listed', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  const paths = await page.evaluate(async () => {
    const { collectDrop, isBatch } = await import('./src/batch/collect.js');
    const file = (name) => ({ isFile: true, isDirectory: false, name, file: (ok) => ok(new File(['x'], name)) });
    const broken = (name) => ({ isFile: true, isDirectory: false, name, file: (ok, fail) => fail(new DOMException('gone', 'NotFoundError')) });
    // readEntries answers 100 at a time, like Chromium, until it answers nothing.
    const dir = (name, children) => ({
      isFile: false, isDirectory: true, name,
      createReader() { let at = 0; return { readEntries(ok) { const some = children.slice(at, at + 100); at += some.length; setTimeout(() => ok(some)); } }; },
    });
    const many = Array.from({ length: 250 }, (_, i) => file(`f${String(249 - i).padStart(3, '0')}.bag`));
    const root = dir('run', [file('b.bag'), dir('a', [file('z.log'), broken('y.bddf')]), file('a.bag'), dir('many', many)]);
    const items = await collectDrop([{ entry: root }, { file: new File(['x'], 'loose.txt') }]);
    return { batch: isBatch([{ entry: root }]), paths: items.map((i) => i.path), errors: items.filter((i) => i.error).map((i) => i.error) };
  });
  assert.equal(paths.batch, true);
  assert.deepEqual(paths.paths.slice(0, 5), ['run/a/y.bddf', 'run/a/z.log', 'run/a.bag', 'run/b.bag', 'run/many/f000.bag']);
  assert.equal(paths.paths.length, 4 + 250 + 1);
  assert.equal(paths.paths.at(-2), 'run/many/f249.bag');
  assert.equal(paths.paths.at(-1), 'loose.txt');
  assert.deepEqual(paths.errors, ['run/a/y.bddf: the browser could not read the file (gone)']);
  await page.context().close();
});

test('all of ../shared/samples dropped at once: every row agrees with logscope check --json', async (t) => {
  if (skipUnless(t, { cli: true, samples: true })) return;
  for (const scheme of ['light', 'dark']) {
    const page = await env.newPage({ colorScheme: scheme });
    await page.setInputFiles('#folder-input', samples);
    await waitBatch(page);
    if (scheme === 'light') {
      // rosbag2/: each bag folder is one row, as the CLI lists it.
      const rows = await compareWithCli(page, dirname(samples), basename(samples));
      assert.ok(rows.some((r) => r.path === `${basename(samples)}/rosbag2/ros2__rosbag2__wbag` && r.family === 'rosbag2'), 'the split bag folder is one row');
      assert.ok(rows.length > 20, `${rows.length} files`);
    }
    await page.click('th[data-col="verdict"] button');
    await screenshot(page, `batch-samples-${scheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
