// The Transforms tab against `logscope tf --json`: the demo bag's tree at its last update and at a
// time chosen on the tab's slider, a robot log row that moves the tree to its time, and the real
// bags with /tf and /tf_static, with screenshots (the real ones skipped without ../shared/samples).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { start, openFile, waitOpened, screenshot, sample, demo, cliJson, haveWasm, skipUnless } from './helpers.mjs';

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

// The tree the tab shows once it has answered for `atNs` (any time when null): each edge drawn,
// parent -> child with its values line, in drawing order.
async function shownTree(page, atNs = null) {
  await page.waitForFunction((at) => {
    const panel = document.querySelector('#panel-tf');
    return panel?.dataset.edges && (at === null || panel.dataset.atNs === at) && !document.body.dataset.job;
  }, atNs, { timeout: 60_000 });
  return page.evaluate(() => ({
    atNs: document.querySelector('#panel-tf').dataset.atNs,
    edges: [...document.querySelectorAll('#tf-tree li.tf-edge')].map((li) => ({ parent: li.dataset.parent, child: li.dataset.child, values: li.querySelector('.tf-values').textContent })),
    roots: [...document.querySelectorAll('#tf-tree li.tf-root')].map((li) => li.dataset.frame),
    findings: [...document.querySelectorAll('#tf-findings li.tf-finding')].map((li) => li.dataset.code),
  }));
}

// What the CLI says at the same time, as the tab would draw it.
function cliTree(path, atNs) {
  const answer = cliJson('tf', path, '--json', '--at', `${atNs.slice(0, -9)}.${atNs.slice(-9)}`);
  assert.equal(answer.at_ns, atNs);
  return answer;
}

function sameTree(shown, answer) {
  const drawn = answer.edges.filter((e) => e.at);
  assert.deepEqual(shown.edges.map((e) => `${e.parent}>${e.child}`).sort(), drawn.map((e) => `${e.parent}>${e.child}`).sort());
  assert.deepEqual(shown.roots, answer.roots);
  assert.deepEqual(shown.findings, answer.findings.map((f) => f.code));
  for (const e of drawn) {
    const values = shown.edges.find((s) => s.parent === e.parent && s.child === e.child).values;
    const fix = (v, d) => (Object.is(Math.round(v * 10 ** d), -0) ? 0 : v).toFixed(d);
    assert.ok(values.includes(`xyz ${fix(e.at.x, 3)} ${fix(e.at.y, 3)} ${fix(e.at.z, 3)} m`), `${e.parent} -> ${e.child}: ${values}`);
    assert.ok(values.includes(`${fix(e.at.yaw_deg, 1)}°`), `${e.parent} -> ${e.child}: ${values}`);
    if (!e.static) assert.ok(values.includes(`updated ${(Number(e.at.age_ns) / 1e9).toFixed(3)} s before`), values);
  }
}

test('transforms: the demo bag\'s frame tree at its last update and at a time on the slider, as logscope tf --json gives them', async (t) => {
  if (skipUnless(t, { demos: true, cli: true })) return;
  const path = demo('husky_outdoor.bag');
  const page = await env.newPage();
  await openFile(page, path);
  assert.equal(await waitOpened(page, basename(path)), 'summary');
  await page.click('#tab-tf');
  const last = await shownTree(page);
  const answer = cliJson('tf', path, '--json');
  assert.equal(last.atNs, answer.at_ns);
  sameTree(last, answer);
  assert.ok(last.edges.length >= 2, 'the demo has odom -> base_link -> imu_link');
  // A third of the way: the tree moves, and so does the timeline's cursor.
  await page.$eval('#tf-time', (slider) => { slider.value = '333'; slider.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction((before) => document.querySelector('#panel-tf').dataset.atNs !== before, last.atNs, { timeout: 30_000 });
  const third = await shownTree(page);
  sameTree(third, cliTree(path, third.atNs));
  assert.notDeepEqual(third.edges.map((e) => e.values), last.edges.map((e) => e.values));
  await screenshot(page, 'transforms-husky_outdoor.bag');
  await page.context().close();
});

test('transforms: a file without transform topics says so; a format without messages says which', async (t) => {
  if (skipUnless(t, { demos: true })) return;
  const page = await env.newPage();
  await openFile(page, demo('town03_intersection.log'));
  assert.equal(await waitOpened(page, 'town03_intersection.log'), 'summary');
  await page.click('#tab-tf');
  await page.waitForFunction(() => /transform topic/.test(document.querySelector('#panel-tf')?.textContent || '') && !document.body.dataset.job, null, { timeout: 30_000 });
  assert.match(await page.textContent('#panel-tf'), /carries no messages, so it has no transform topic/);
  await page.context().close();
});

for (const name of ['MichaelGrupp__evo__tf_example.bag', 'SHARATHbhushan__panda_fault_injection_block__2023-02-20-17-55-35.bag']) {
  test(`transforms: the real ${name} (/tf and /tf_static) as logscope tf --json gives it`, async (t) => {
    if (skipUnless(t, { samples: true, cli: true })) return;
    const path = sample('rosbag', 'real', name);
    const page = await env.newPage();
    await openFile(page, path);
    assert.equal(await waitOpened(page, name), 'summary');
    await page.click('#tab-tf');
    const shown = await shownTree(page);
    sameTree(shown, cliJson('tf', path, '--json'));
    assert.ok(shown.edges.some((e) => /·/.test(e.values)));
    await screenshot(page, `transforms-${name}`);
    await page.context().close();
  });
}
