// The Diagnostics tab against `logscope diag --json`, on the committed fixture
// (tests/web/fixtures/diagnostics.bag, written by `logscope make-demo-diagnostics`): the table's
// components, worst levels, levels and messages at the time, the strips' runs, the key/values a
// click shows, and the same at a finding's time; with a screenshot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { start, openFile, waitOpened, screenshot, root, cliJson, haveWasm, skipUnless } from './helpers.mjs';

const fixture = join(root, 'tests', 'web', 'fixtures', 'diagnostics.bag');

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

// The table the tab shows once it has answered for `atNs` (any time when null).
async function shownTable(page, atNs = null) {
  await page.waitForFunction((at) => {
    const panel = document.querySelector('#panel-diag');
    return panel?.dataset.components && (at === null || panel.dataset.atNs === at) && !document.body.dataset.job;
  }, atNs, { timeout: 30_000 });
  return page.evaluate(() => ({
    atNs: document.querySelector('#panel-diag').dataset.atNs,
    rows: [...document.querySelectorAll('#diag-table tr.diag-row')].map((tr) => ({
      name: tr.dataset.name, hardware_id: tr.dataset.hardwareId, worst: tr.dataset.worst, at: tr.dataset.atLevel,
      message: tr.children[4].textContent,
      runs: [...tr.querySelectorAll('.diag-run')].map((r) => `${r.dataset.level}:${r.dataset.startNs}-${r.dataset.endNs}`),
    })),
    findings: [...document.querySelectorAll('#diag-findings li.tf-finding')].map((li) => li.dataset.code),
  }));
}

function sameTable(shown, answer) {
  assert.equal(shown.atNs, answer.at_ns);
  assert.deepEqual(shown.rows.map((r) => r.name), answer.components.map((c) => c.name));
  for (const [i, c] of answer.components.entries()) {
    const r = shown.rows[i];
    assert.equal(r.hardware_id, c.hardware_id);
    assert.equal(r.worst, c.worst);
    assert.equal(r.at, c.at ? c.at.level : '');
    assert.equal(r.message, c.at ? c.at.message : '');
    assert.deepEqual(r.runs, c.runs.filter((x) => x.level !== 'OK').map((x) => `${x.level}:${x.start_ns}-${x.end_ns}`));
  }
  assert.deepEqual(shown.findings, answer.findings.map((f) => f.code));
}

test('diagnostics: the fixture\'s components, levels, strips and key/values as logscope diag --json gives them', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'diagnostics.bag'), 'summary');
  await page.click('#tab-diag');
  const end = await shownTable(page);
  const answer = cliJson('diag', fixture, '--json');
  sameTable(end, answer);
  assert.deepEqual(end.rows.map((r) => r.worst), ['OK', 'WARN', 'STALE', 'ERROR']);  // battery, gps (WARN, and an UNKNOWN byte), lidar, motor_left
  assert.ok(end.findings.includes('diagnostics.component.error') && end.findings.includes('diagnostics.level.unknown'));

  // The ERROR finding's link: the time moves to it, and motor_left's key/values at it show on a click.
  await page.click('#diag-findings li[data-code="diagnostics.component.error"] button');
  const errorAt = answer.findings.find((f) => f.code === 'diagnostics.component.error').time_ns;
  const atError = await shownTable(page, errorAt);
  const there = cliJson('diag', fixture, '--json', '--at', `${errorAt.slice(0, -9)}.${errorAt.slice(-9)}`);
  sameTable(atError, there);
  assert.equal(atError.rows.find((r) => r.name === 'motor_left').at, 'ERROR');
  await page.click('#diag-table tr.diag-row[data-name="motor_left"]');
  const values = await page.$$eval('#diag-values tr', (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
  assert.deepEqual(values, there.components.find((c) => c.name === 'motor_left').at.values.map((kv) => [kv.key, kv.value]));
  await screenshot(page, 'diagnostics-fixture');
  await page.context().close();
});

test('diagnostics: the Overview counts the components by worst level and links to the first ERROR', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'diagnostics.bag'), 'summary');
  await page.waitForFunction(() => document.querySelector('#diag-line')?.dataset.components, null, { timeout: 60_000 });
  const answer = cliJson('diag', fixture, '--json');
  assert.equal(await page.getAttribute('#diag-line', 'data-components'), String(answer.component_count));
  assert.equal(await page.getAttribute('#diag-line', 'data-messages'), String(answer.messages));
  const worst = (level) => answer.components.filter((c) => c.worst === level).length;
  const text = await page.textContent('#diag-line');
  assert.match(text, new RegExp(`${worst('ERROR')} of ${answer.component_count} components reached ERROR, ${worst('STALE')} STALE, ${worst('WARN')} WARN`));
  assert.match(text, /1 gave a level no name fits/); // gps's UNKNOWN byte
  await screenshot(page, 'diagnostics-overview-line');
  // The link moves the cursor to the earliest ERROR and shows the tab there.
  const firstError = answer.findings.filter((f) => f.code === 'diagnostics.component.error').map((f) => BigInt(f.time_ns)).reduce((a, b) => (b < a ? b : a));
  await page.click('#diag-first-error');
  const atError = await shownTable(page, String(firstError));
  assert.equal(atError.rows.find((r) => r.name === 'motor_left').at, 'ERROR');
  await page.context().close();
});
