// Facts read after the summary (a bag's compression, from info_report in the job worker) and the
// Data tab per format (bag messages, CARLA collisions and actors, BDDF blocks), against the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { start, openFile, waitOpened, waitIdle, cliJson, screenshot, sample, cli, root, haveSamples, haveWasm, haveCli, openSettled, skipUnless } from './helpers.mjs';

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

const skip = (t, { samples = true } = {}) => skipUnless(t, { samples, cli: true });
const demo = (name) => join(root, 'web', 'gen', 'demo', name);

async function openData(page, path) {
  await openSettled(page, path);
  await page.click('#tab-data');
}

// The writer-made demo bag always; the real lz4 sample too when ../shared is present.
test('a bag overview fills in the compression facts of info_report, as the CLI reports them', async (t) => {
  if (skip(t, { samples: false })) return;
  const cases = [[demo('husky_outdoor.bag'), 'dark']];
  if (haveSamples) cases.push([sample('rosbag', 'rosbagjs__example-lz4.bag'), 'light']);
  else t.diagnostic('the real lz4 sample is absent: the writer-made bag only');
  for (const [path, scheme] of cases) {
    const expected = cliJson('info', '--json', path).summary;
    const page = await env.newPage({ colorScheme: scheme });
    await openFile(page, path);
    assert.equal(await waitOpened(page, basename(path)), 'summary');
    // A row of the topics table selected before the facts arrive stays selected afterwards.
    await page.locator('[data-table="topics"] tbody tr').first().click();
    await page.waitForFunction(() => document.body.dataset.compression === 'done');
    assert.equal(await page.locator('[data-table="topics"] tbody tr.selected').count(), 1, 'the selected row survives the merge');
    const ratio = Number(await page.getAttribute('#facts [data-key="compression_ratio"] dd', 'data-value'));
    assert.equal(ratio, expected.details.compression_ratio);
    assert.match(await page.textContent('#facts [data-key="compression_ratio"] dd'), new RegExp(`^${(expected.details.compression_ratio * 100).toFixed(1)} %`));
    assert.equal(Number(await page.getAttribute('#facts [data-key="uncompressed"] dd', 'data-value')), expected.details.uncompressed);
    assert.equal(Number(await page.getAttribute('#facts [data-key="compressed"] dd', 'data-value')), expected.details.compressed);
    assert.ok((await page.textContent('#facts [data-key="compression"] dd')).startsWith(expected.facts.find((f) => f.key === 'compression').value), 'the codec name');
    // The job worker read the chunk headers all at once (web/src/scattered-reads.js): its codec
    // asked the file only for what opening needs (the first block and the index), never a chunk.
    const chunks = expected.details.compression_by_codec.reduce((sum, c) => sum + c.chunks, 0);
    const jobStats = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
    assert.equal(jobStats.scattered_reads, chunks, 'one scattered read per chunk header');
    assert.ok(jobStats.read_calls <= 3, `the codec read nothing past opening (${jobStats.read_calls} calls)`);
    await waitIdle(page);
    await screenshot(page, `overview-compression-${basename(path)}-${scheme}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('bag: the Data tab lists decoded messages in time order, like logscope messages', async (t) => {
  if (skip(t, { samples: false })) return;
  const path = demo('husky_outdoor.bag');
  const expected = execFileSync(cli, ['messages', path, '--limit', '5', '--json'], { encoding: 'utf8' }).trim().split('\n').map((line) => JSON.parse(line));
  const page = await env.newPage();
  await openData(page, path);
  await page.waitForSelector('#data-table tbody tr');
  const rows = await page.$$eval('#data-table tbody tr:not(.detail)', (trs) => trs.slice(0, 5).map((tr) => ({ topic: tr.dataset.topic, time: tr.dataset.timeNs, shown: tr.children[1].textContent })));
  assert.deepEqual(rows.map(({ topic, time }) => ({ topic, time })), expected.map((m) => ({ topic: m.topic, time: m.time_ns })));
  // The time in its unit (time_ns, an exact decimal string): the UTC date with every ns digit.
  assert.ok(BigInt(expected[0].time_ns) > 2n ** 53n);
  assert.ok(rows[0].shown.endsWith(`.${expected[0].time_ns.slice(-9)} UTC`), rows[0].shown);
  // Expanding a message shows its decoded fields.
  await page.locator('#data-table tbody tr').first().click();
  await page.waitForSelector('#data-table tr.detail .rv-key');
  const detail = await page.textContent('#data-table tr.detail');
  for (const name of Object.keys(expected[0].message)) assert.ok(detail.includes(name), `the decoded field ${name}`);
  // The topic filter pages through one topic.
  await page.selectOption('#data-topic', '/odometry/filtered');
  await page.waitForFunction(() => [...document.querySelectorAll('#data-table tbody tr:not(.detail)')].every((tr) => tr.dataset.topic === '/odometry/filtered'));
  const topicRows = cliJson0(path, '/odometry/filtered');
  await page.waitForFunction((time) => document.querySelector('#data-table tbody tr')?.dataset.timeNs === time, topicRows.time_ns);
  await screenshot(page, 'data-rosbag');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

function cliJson0(path, topic) {
  return JSON.parse(execFileSync(cli, ['messages', path, '--topic', topic, '--limit', '1', '--json'], { encoding: 'utf8' }).trim().split('\n')[0]);
}

test('CARLA: the Data tab shows collisions and actors like the CLI, and a collision jumps to its frame', async (t) => {
  if (skip(t, { samples: false })) return;
  const path = demo('town03_intersection.log');
  const expected = cliJson('collisions', path, '--json');
  const actors = cliJson('actors', path, '--json').actors;
  assert.ok(expected.collisions.length > 0, 'the demo log has collisions');
  for (const scheme of ['light', 'dark']) {
    const page = await env.newPage({ colorScheme: scheme });
    await openData(page, path);
    await page.waitForSelector('#collisions-table tbody tr');
    const rows = await page.$$eval('#collisions-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.frame, tr.dataset.id1, tr.dataset.id2].map((v) => (v === undefined ? null : Number(v)))));
    assert.deepEqual(rows, expected.collisions.map((c) => [c.frame, c.id1, c.id2]));
    await page.waitForSelector('#actors-table tbody tr');
    assert.equal(await page.locator('#actors-table tbody tr:not(.detail)').count(), actors.length);
    assert.equal(Number(await page.getAttribute('#actors-table tbody tr >> nth=0', 'data-id')), actors[0].id);
    await screenshot(page, `data-carla-${scheme}`);
    if (scheme === 'light') {
      const frame = expected.collisions[0].frame;
      const info = await page.evaluate((id) => window.logscope.state.client.call('query', { name: 'frames', args: { first: 0, count: 100000 } }).then((r) => r.frames.find((f) => f.id === id)), frame);
      await page.locator('#collisions-table tbody tr').first().locator('.jump').click();
      await page.waitForSelector('#panel-explore:not([hidden])');
      await page.waitForFunction((o) => Number(document.querySelector('#cursor-offset')?.dataset.offset) === o, info.offset);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('BDDF: the Data tab lists the blocks of a series like logscope blocks, and a block jumps to its bytes', async (t) => {
  if (skip(t, { samples: false })) return;
  const path = demo('spot_walk.bddf');  // the writer's: no real file needed
  const expected = cliJson('blocks', path, '--series', '0', '--json');
  const page = await env.newPage();
  await openData(page, path);
  await page.waitForFunction(() => document.querySelector('#panel-data').dataset.loaded === 'blocks');
  const rows = await page.$$eval('#data-table tbody tr', (trs) => trs.slice(0, 20).map((tr) => [Number(tr.dataset.series), Number(tr.dataset.entry), Number(tr.dataset.offset)]));
  assert.deepEqual(rows, expected.blocks.slice(0, 20).map((b) => [b.series, b.entry, b.file_offset]));
  assert.ok((await page.textContent('#data-count')).startsWith(expected.total.toLocaleString('en-US')), 'the total');
  // A time range: blocks from 1 s to 2 s after the first block, compared with the CLI's --from/--to.
  const ranged = cliJson('blocks', path, '--series', '0', '--from', '+1', '--to', '+2', '--json');
  await page.fill('#data-from', '1');
  await page.fill('#data-to', '2');
  await page.click('#data-apply');
  await page.waitForFunction((n) => document.querySelectorAll('#data-table tbody tr').length === n, ranged.blocks.length);
  assert.equal(Number(await page.getAttribute('#data-table tbody tr >> nth=0', 'data-offset')), ranged.blocks[0].file_offset);
  await screenshot(page, 'data-bddf');

  // Decoding a block, then jumping to its bytes.
  await page.locator('#data-table tbody tr').first().click();
  await page.waitForSelector('#data-table tr.detail .rv-key');
  // The decoded block's time in its unit: the UTC date to the ns.
  const utc = `${new Date(Number(BigInt(ranged.blocks[0].timestamp_ns) / 1000000n)).toISOString().slice(0, 19).replace('T', ' ')}.${ranged.blocks[0].timestamp_ns.slice(-9)} UTC`;
  await page.locator('#data-table tr.detail summary', { hasText: 'data_descriptor' }).click();
  await page.waitForFunction((text) => document.querySelector('#data-table tr.detail').textContent.includes(text), utc);
  const offset = ranged.blocks[0].file_offset;
  await page.locator('#data-table tbody tr').first().locator('.jump').click();
  await page.waitForSelector('#panel-explore:not([hidden])');
  await page.waitForFunction((o) => Number(document.querySelector('#cursor-offset')?.dataset.offset) === o, offset);

  await page.click('#tab-data');
  // Block times beyond 2^53 ns come through exactly: shown to the ns, and as a range bound a block's
  // own time keeps that block and one ns later leaves it out (a double cannot tell them apart).
  const all = cliJson('blocks', path, '--json');
  const origin = all.blocks.reduce((min, b) => (BigInt(b.timestamp_ns) < min ? BigInt(b.timestamp_ns) : min), BigInt(all.blocks[0].timestamp_ns));
  const block = expected.blocks[5];
  const at = BigInt(block.timestamp_ns);
  assert.ok(at > 2n ** 53n && Number(at) === Number(at + 1n), 'the time is past what a double tells apart');
  const seconds = (ns) => `${ns / 1000000000n}.${String(ns % 1000000000n).padStart(9, '0')}`;
  const showRange = async (from, to) => {
    await page.fill('#data-from', seconds(from - origin));
    await page.fill('#data-to', seconds(to - origin));
    await page.click('#data-apply');
  };
  await showRange(at, at);
  await page.waitForFunction((ns) => { const rows = [...document.querySelectorAll('#data-table tbody tr:not(.detail)')]; return rows.length > 0 && rows.every((tr) => tr.dataset.timestampNs === ns); }, block.timestamp_ns);
  const sameTime = expected.blocks.filter((b) => b.timestamp_ns === block.timestamp_ns);
  assert.equal(await page.locator('#data-table tbody tr:not(.detail)').count(), sameTime.length);
  const shown = await page.textContent('#data-table tbody tr >> nth=0 >> td >> nth=2');
  assert.ok(shown.endsWith(`.${block.timestamp_ns.slice(-9)} UTC`), `the time to the ns: ${shown}`);
  await showRange(at + 1n, at + 1n);
  await page.waitForFunction(() => document.querySelector('#data-count')?.textContent === 'No blocks in this range.');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('screenshots: the overview and the Data tab of each demo log, light and dark', async (t) => {
  if (!haveWasm) return t.skip('SKIPPED: web/gen/logscope.mjs is not built');
  const demos = [['bddf', 'spot_walk.bddf', 'blocks'], ['rosbag', 'husky_outdoor.bag', 'messages'], ['carla', 'town03_intersection.log', 'carla']];
  for (const [family, name, loaded] of demos) {
    for (const scheme of ['light', 'dark']) {
      const page = await env.newPage({ colorScheme: scheme });
      await openFile(page, demo(name));
      assert.equal(await waitOpened(page, name), 'summary');
      await waitIdle(page);
      if (family === 'rosbag') await page.waitForFunction(() => document.body.dataset.compression === 'done');
      await screenshot(page, `overview-${family}-${scheme}`);
      await page.click('#tab-data');
      await page.waitForFunction((l) => document.querySelector('#panel-data').dataset.loaded === l, loaded);
      await page.locator('#panel-data tr.expandable').nth(1).click();
      await page.waitForSelector('#panel-data tr.detail .rv-key, #panel-data tr.detail .rv-leaf');
      await screenshot(page, `data-${family}-${scheme}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});
