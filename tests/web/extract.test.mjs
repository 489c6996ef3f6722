// The page's Extract & export tab: extract, repair and export written by the codec in the job
// worker into the browser's private storage (OPFS), downloaded, and checked on disk with the CLI
// (and python3-rosbag where it is installed). Files made by our writers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { start, openSettled, cli, cliJson, haveWasm, haveCli, screenshot, skipUnless } from './helpers.mjs';

let env, dir;
const files = {};
const haveRosbag = (() => { try { execFileSync('/usr/bin/python3', ['-c', 'import rosbag'], { stdio: 'ignore' }); return true; } catch { return false; } })();

before(async () => {
  if (!haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-extract-'));
  files.bag = join(dir, 'husky.bag');
  execFileSync(cli, ['make-demo-rosbag', files.bag, '--size-mb', '3', '--compression', 'lz4'], { stdio: 'ignore' });
  files.bddf = join(dir, 'spot.bddf');
  execFileSync(cli, ['make-demo-bddf', files.bddf, '--size-mb', '2'], { stdio: 'ignore' });
  files.carla = join(dir, 'town.log');
  execFileSync(cli, ['make-demo-carla', files.carla, '--size-mb', '1'], { stdio: 'ignore' });
  for (const kind of ['bag', 'bddf', 'carla']) {
    files[`cut_${kind}`] = join(dir, `cut_${basename(files[kind])}`);
    copyFileSync(files[kind], files[`cut_${kind}`]);
    truncateSync(files[`cut_${kind}`], Math.floor(statSync(files[kind]).size * 0.61));
  }
  env = await start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const skip = (t) => skipUnless(t, { cli: true });

// The CLI's exit status and output (non-zero is data here).
function run(...args) {
  try {
    return { status: 0, out: execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }) };
  } catch (error) {
    return { status: error.status, out: String(error.stdout) };
  }
}

// The CLI's copy of a bag without compression: lz4 bytes differ between the native and wasm32
// builds of liblz4, the records must not.
function plainBag(path) {
  const out = `${path}.plain`;
  assert.equal(run('extract', path, out, '--compression', 'none').status, 0, `${basename(path)} copies clean`);
  return readFileSync(out);
}

// Extracts one BDDF series (its number as text) from the open tab.
async function extractSeries(page, series) {
  await page.click('#extract-series button:has-text("none")');
  await page.check(`#extract-series input[value="${series}"]`);
  await page.click('#extract-run');
}

// Waits until the check of the written file is held (?test-hold-output-check) with `hook` offered.
async function checkHeld(page, hook) {
  await page.waitForFunction((name) => typeof window[name] === 'function' && document.querySelector('#progress .progress-label')?.textContent.includes('Checking the written file'), hook, { timeout: 60_000 });
}

async function openTab(page, path) {
  await openSettled(page, path);
  await page.click('#tab-extract');
}

// Waits for the result card and saves the download next to the inputs.
async function finished(page, name) {
  await page.waitForSelector('#output-result[data-state="done"], #output-result[data-state="failed"], #output-result[data-state="cancelled"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'done', await page.textContent('#output-result'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#output-download')]);
  assert.equal(download.suggestedFilename(), name);
  const path = join(dir, `page-${name}`);
  await download.saveAs(path);
  return path;
}

test('bag: extract one topic in the page, download it; the CLI and rosbag read exactly that topic', async (t) => {
  if (skip(t)) return;
  const topics = cliJson('info', '--json', files.bag).summary.tables.find((x) => x.name === 'topics').rows;
  const odom = topics.find((r) => r[0] === '/odometry/filtered');
  for (const scheme of ['light', 'dark']) {
    const page = await env.newPage({ colorScheme: scheme });
    await openTab(page, files.bag);
    await page.click('#extract-topics button:has-text("none")');
    await page.check('#extract-topics input[value="/odometry/filtered"]');
    await screenshot(page, `extract-form-${scheme}`);
    await page.click('#extract-run');
    const path = await finished(page, 'husky.extract.bag');
    assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
    assert.equal(await page.getAttribute('#output-storage', 'data-storage'), 'opfs');
    assert.match(await page.textContent('#output-kept'), new RegExp(`${odom[2]} messages`));
    assert.equal(Number(await page.getAttribute('#output-size', 'data-size')), statSync(path).size);
    await screenshot(page, `extract-result-${scheme}`);

    // On disk: valid, one topic with all its messages, the records the CLI's own extract writes.
    assert.equal(run('check', path).status, 0, 'logscope check: clean');
    const info = cliJson('info', '--json', path).summary;
    assert.equal(info.file.counts.messages, odom[2]);
    assert.deepEqual(info.tables.find((x) => x.name === 'topics').rows.map((r) => [r[0], r[2]]), [['/odometry/filtered', odom[2]]]);
    const reference = join(dir, `cli-extract-${scheme}.bag`);
    assert.equal(run('extract', files.bag, reference, '--topics', '/odometry/filtered').status, 0);
    assert.ok(plainBag(path).equals(plainBag(reference)), 'the same records as `logscope extract`');
    if (haveRosbag) {
      const counts = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
        'import json, rosbag, sys\nb = rosbag.Bag(sys.argv[1])\nprint(json.dumps({t: i.message_count for t, i in b.get_type_and_topic_info().topics.items()}))', path], { encoding: 'utf8' }));
      assert.deepEqual(counts, { '/odometry/filtered': odom[2] }, 'rosbag reads the one topic');
      assert.match(execFileSync('rosbag', ['info', path], { encoding: 'utf8' }), /\/odometry\/filtered\s+\d+ msgs/);
    } else t.diagnostic('python3-rosbag is not installed: the download was not read with rosbag');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a truncated bag: "Write a repaired copy" next to the problems; the copy checks clean and holds what `logscope repair` keeps', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openSettled(page, files.cut_bag);
  await page.click('#tab-problems');
  await page.click('#problems-card .repair-offer');
  const path = await finished(page, 'cut_husky.repaired.bag');
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  assert.match(await page.textContent('#output-dropped'), /bytes from byte \d+ to the end/);
  assert.equal(run('check', path).status, 0);
  const reference = join(dir, 'cli-repaired.bag');
  const cliRun = run('repair', files.cut_bag, reference);
  assert.equal(cliRun.status, 0);
  assert.ok(plainBag(path).equals(plainBag(reference)), 'the same records as `logscope repair`');
  const kept = /kept: (\d+) messages/.exec(cliRun.out)[1];
  assert.equal(cliJson('info', '--json', path).summary.file.counts.messages, Number(kept));
  if (haveRosbag) assert.match(execFileSync('rosbag', ['info', path], { encoding: 'utf8' }), new RegExp(`messages:\\s+${kept}\\b`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a truncated BDDF: the repaired copy has a valid SHA1 and exactly the blocks complete before the cut', async (t) => {
  if (skip(t)) return;
  // The complete blocks, from the whole file: a block ends where the next one starts.
  const cut = statSync(files.cut_bddf).size;
  const blocks = cliJson('blocks', files.bddf, '--json', '--max', '100000').blocks.map((b) => b.file_offset).sort((a, b) => a - b);
  const dataEnd = cliJson('map', '--json', files.bddf).map.regions.find((r) => r.kind === 'block');
  const ends = [...blocks.slice(1), dataEnd.offset + dataEnd.length];
  const complete = ends.filter((end) => end <= cut).length;
  assert.ok(complete > 0 && complete < blocks.length);

  const page = await env.newPage({ colorScheme: 'dark' });
  await openSettled(page, files.cut_bddf);
  await page.click('#recovery-slot .repair-offer');
  const path = await finished(page, 'cut_spot.repaired.bddf');
  assert.equal(await page.getAttribute('#output-verdict', 'data-checksum'), 'valid');
  await screenshot(page, 'repair-bddf-result-dark');
  const check = run('check', path);
  assert.equal(check.status, 0);
  assert.match(check.out, /checksum: valid/);
  assert.equal(cliJson('info', '--json', path).summary.file.counts.data_blocks, complete);
  const reference = join(dir, 'cli-repaired.bddf');
  assert.equal(run('repair', files.cut_bddf, reference).status, 0);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope repair` writes');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A BDDF file's new index follows all of its blocks: the job worker sets it aside in a scratch
// file in OPFS (output-job.js), not in its memory, and removes that file when the writing ends.
test('a BDDF extract sets its new index aside in OPFS, says so, leaves no scratch file, and writes what the CLI writes', async (t) => {
  if (skip(t)) return;
  const input = join(dir, 'spot30.bddf');
  execFileSync(cli, ['make-demo-bddf', input, '--size-mb', '30'], { stdio: 'ignore' }); // 4141 RobotState blocks
  const page = await env.newPage();
  await openTab(page, input);
  await extractSeries(page, '0');
  const path = await finished(page, 'spot30.extract.bddf');
  assert.equal(await page.getAttribute('#output-storage', 'data-storage'), 'opfs');
  assert.match(await page.textContent('#output-result'), /the new block index waited in a scratch file while the blocks were written: \d+ bytes/);
  await screenshot(page, 'extract-bddf-scratch');
  assert.match(await page.textContent('#output-result'), /4,141 data blocks, 1 series(?!s)/);
  const left = await page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('logscope-outputs');
    const names = [];
    for await (const name of dir.keys()) names.push(name);
    return names;
  });
  assert.deepEqual(left.filter((name) => name.endsWith('~scratch')), [], `OPFS holds ${left.join(', ')}`);
  const reference = join(dir, 'cli-extract-spot30.bddf');
  const cliRun = run('extract', input, reference, '--series', '0');
  assert.equal(cliRun.status, 0);
  assert.match(cliRun.out, /waited in a scratch file/);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope extract` writes');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The written file is checked in a worker of its own (web/src/output-check.js): the job worker
// keeps the log open and never holds the output's index beside the log's. Its Cancel stops that
// worker only: the file is complete and kept, and the job worker writes the next output at once.
// A crash of that worker keeps the file too, and says why it is unchecked.
test('the check of a written file runs in a worker of its own: its Cancel or its crash keeps the file and the job worker\'s open log', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage({ query: '?nodemo&test-hold-output-check' });
  await openTab(page, files.bddf);
  await extractSeries(page, '0');
  await checkHeld(page, 'releaseOutputCheck');
  const jobs = await page.evaluate(() => ({ source: Boolean(window.logscope.jobsClient().source), waiting: [...window.logscope.jobsClient().pending.values()].map((p) => p.op) }));
  assert.deepEqual(jobs, { source: true, waiting: [] }, 'the job worker is not the one checking');
  const spawns = await page.evaluate(() => window.logscope.jobsClient().spawns);
  await page.click('#progress button:has-text("Cancel")');
  await page.waitForSelector('#output-verdict[data-verdict="cancelled"]', { timeout: 30_000 });
  const path = await finished(page, 'spot.extract.bddf');
  const written = cliJson('check', '--json', path);
  assert.equal(written.report.details.checksum.status, 'valid', 'the file kept after the Cancel is complete');
  assert.equal(await page.evaluate(() => Boolean(window.logscope.jobsClient().source)), true, 'the job worker still has the log open');
  // The next extract: written by the same job worker, and this time checked to its end.
  assert.equal(await page.evaluate(() => window.logscope.jobsClient().spawns), spawns, 'the job worker was not replaced');
  await page.click('#extract-run');
  await checkHeld(page, 'releaseOutputCheck');
  await page.evaluate(() => window.releaseOutputCheck());
  await page.waitForSelector('#output-verdict[data-verdict="valid"]', { timeout: 60_000 });
  assert.ok(Number(await page.getAttribute('#output-verdict', 'data-memory')) > 0, 'the checking worker\'s memory is reported');
  // A third: its checking worker crashes. The file is complete, kept and offered, unchecked, with why.
  await page.click('#extract-run');
  await checkHeld(page, 'crashOutputCheck');
  await page.evaluate(() => window.crashOutputCheck());
  await page.waitForSelector('#output-verdict[data-verdict="error"]', { timeout: 60_000 });
  assert.match(await page.textContent('#output-verdict'), /could not be checked: .*simulated worker crash/);
  await screenshot(page, 'extract-check-crashed');
  const kept = await finished(page, 'spot.extract.bddf');
  assert.equal(cliJson('check', '--json', kept).report.details.checksum.status, 'valid');
  assert.equal(await page.evaluate(() => window.logscope.jobsClient().spawns), spawns);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('export a topic as CSV and as JSON Lines: byte for byte what `logscope export` writes', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openTab(page, files.bag);
  for (const format of ['csv', 'jsonl']) {
    await page.selectOption('#export-source', '/imu/data');
    await page.selectOption('#export-format', format);
    await page.fill('#export-from', '1');
    await page.click('#export-run');
    const path = await finished(page, `husky.imu_data.${format}`);
    const expected = execFileSync(cli, ['export', files.bag, '--topic', '/imu/data', '--from', '+1', '--format', format], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    assert.ok(readFileSync(path).equals(expected), `${format}: identical`);
    assert.equal(Number(await page.getAttribute('#output-rows', 'data-rows')), expected.toString().trim().split('\n').length - (format === 'csv' ? 1 : 0));
  }
  await screenshot(page, 'export-result-light');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('CARLA: chosen actors in a time range are extracted as `logscope extract` writes them', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openTab(page, files.carla);
  assert.equal(await page.$('#extract-refused'), null, 'the format table says CARLA logs extract');
  // Every actor is kept until they are listed; listing them fills the checkboxes (and the export's suggestions).
  assert.match(await page.textContent('#extract-actors'), /Every actor is kept/);
  await page.click('#extract-list-actors');
  await page.waitForSelector('#extract-actors input[type="checkbox"]');
  const actors = cliJson('actors', '--json', files.carla).actors;
  const ids = [...new Set(actors.map((a) => a.id))];
  assert.equal(await page.locator('#extract-actors input[type="checkbox"]').count(), ids.length, 'one checkbox per actor id');
  assert.equal(await page.locator('#export-actors option').count(), ids.length);
  const chosen = actors.filter((a) => a.type === 'vehicle' && a.positions > 0 && a.destroy_frame === null).slice(0, 2).map((a) => a.id);
  assert.equal(chosen.length, 2);
  await page.click('#extract-actors button:has-text("none")');
  for (const id of chosen) await page.check(`#extract-actors input[value="${id}"]`);
  await page.fill('#extract-from', '2');
  await page.fill('#extract-to', '5.5');
  await screenshot(page, 'extract-carla-form-light');
  await page.click('#extract-run');
  const path = await finished(page, 'town.extract.log');
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  const reference = join(dir, 'cli-extract.log');
  assert.equal(run('extract', files.carla, reference, '--actors', chosen.join(','), '--from', '+2', '--to', '+5.5').status, 0);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope extract` writes');
  assert.equal(run('check', path).status, 0, 'logscope check: clean');
  // Frames renumbered from the cut: the extract lasts at most the chosen 3.5 s.
  const duration = Number(cliJson('info', '--json', path).summary.file.duration_ns) / 1e9;
  assert.ok(duration > 0 && duration <= 3.5, `duration ${duration} s`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('CARLA: a cut log is repaired and an actor exports; a BDDF series exports', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage();
  await openTab(page, files.cut_carla);
  await page.click('#repair-run');
  const path = await finished(page, 'cut_town.repaired.log');
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  const reference = join(dir, 'cli-repaired.log');
  assert.equal(run('repair', files.cut_carla, reference).status, 0);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope repair` writes');
  await screenshot(page, 'repair-carla-light');
  // An actor's trajectory, its id picked from the listed actors: what `logscope export --actor` writes.
  await page.click('#export-list-actors');
  await page.waitForFunction(() => document.querySelectorAll('#export-actors option').length > 0);
  const actor = cliJson('actors', '--json', files.cut_carla).actors.find((a) => a.positions > 0).id;
  await page.fill('#export-source', String(actor));
  await page.click('#export-run');
  const rows = await finished(page, `cut_town.actor_${actor}.csv`);
  // (the CLI exits 1 here: the cut log is a problem it reports; the rows are on stdout all the same)
  const expected = spawnSync(cli, ['export', files.cut_carla, '--actor', String(actor)], { maxBuffer: 1 << 28 });
  assert.equal(expected.status, 1);
  assert.ok(readFileSync(rows).equals(expected.stdout));
  assert.match(await page.textContent('#output-result'), /carla\./, 'the problem the CLI reports is listed');
  await screenshot(page, 'export-carla-light');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const bddf = await env.newPage();
  await openTab(bddf, files.bddf);
  await bddf.selectOption('#export-source', '3');
  await bddf.click('#export-run');
  const csv = await finished(bddf, 'spot.imu_linear_acceleration.csv');
  assert.ok(readFileSync(csv).equals(execFileSync(cli, ['export', files.bddf, '--series', '3'], { stdio: ['ignore', 'pipe', 'ignore'] })));
  assert.deepEqual(bddf.errors, []);
  await bddf.context().close();
});

test('without OPFS (?opfs=off) the output is held in memory and says so', async (t) => {
  if (skip(t)) return;
  const page = await env.newPage({ query: '?nodemo&opfs=off' });
  await openTab(page, files.bddf);
  await extractSeries(page, '3');
  const path = await finished(page, 'spot.extract.bddf');
  assert.equal(await page.getAttribute('#output-storage', 'data-storage'), 'memory');
  assert.match(await page.textContent('#output-storage'), /256 MB/);
  const reference = join(dir, 'cli-extract.bddf');
  assert.equal(run('extract', files.bddf, reference, '--series', '3').status, 0);
  assert.ok(readFileSync(path).equals(readFileSync(reference)));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Cancel stops a long extract, keeps nothing, and the next one runs', async (t) => {
  if (skip(t)) return;
  const big = join(dir, 'slow.bag');
  execFileSync(cli, ['make-demo-rosbag', big, '--size-mb', '48', '--compression', 'lz4'], { stdio: 'ignore' });
  const page = await env.newPage();
  await openTab(page, big);
  await page.selectOption('#extract-compression', 'bz2'); // recompressing every chunk with bz2 is slow
  await page.click('#extract-run');
  // Cancel while the extract itself runs (not in the check of the written file that follows:
  // cancelling that keeps the complete file). Progress counts come every 4096 messages, so wait
  // for the phase, not for a count.
  await page.waitForFunction(() => {
    const progress = document.querySelector('#progress');
    const label = progress.querySelector('.progress-label')?.textContent || '';
    return document.querySelector('#output-result')?.dataset.state === 'running' && progress.dataset.state === 'running' &&
      label !== '' && !label.startsWith('Checking the written file');
  });
  await page.click('#progress button:has-text("Cancel")');
  await page.waitForSelector('#output-result[data-state="cancelled"]');
  // Nothing of it is left in the page's storage (the stopped worker's handle is let go first).
  await page.waitForFunction(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('logscope-outputs', { create: true });
    for await (const name of dir.keys()) return false;
    return true;
  }, null, { timeout: 10_000, polling: 300 });
  await page.selectOption('#export-source', '/cmd_vel');
  await page.click('#export-run');
  await finished(page, 'slow.cmd_vel.csv');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
