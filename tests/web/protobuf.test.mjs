// Protobuf by name in the page (web/src/schemas.js): a writer-made BDDF with Spot's RobotState
// shows its fields by number until a descriptor set (built here by Debian's protoc from the
// project's bosdyn-like .proto files) is dropped on the Data view's schema card; then the block
// decodes by name, the plot offers every numeric field by path, the set is remembered across a
// reload (IndexedDB), and Forget drops it. A folder of .proto files works the same way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { start, openSettled, screenshot, cli, root, sample, skipUnless } from './helpers.mjs';

const protoRoot = join(root, 'tests', 'fixtures', 'proto');
const FIELD = 'kinematic_state.joint_states[3].position.value';
let env, dir, file, descriptors;

before(async () => {
  if (skipUnless({ skip() {} }, { cli: true })) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-web-protobuf-'));
  file = join(dir, 'spot_state.bddf');
  execFileSync(cli, ['make-demo-bddf', file, '--size-mb', '1']);
  descriptors = join(dir, 'bosdyn.desc');
  execFileSync('protoc', ['-I', protoRoot, `--descriptor_set_out=${descriptors}`, '--include_imports',
    'bosdyn/api/robot_state.proto', 'bosdyn/api/data_buffer.proto']);
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Drops a file on `selector` as a user's drag would (a DataTransfer holding it).
async function dropFile(page, selector, path) {
  await page.evaluate(({ selector, bytes, name }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], name));
    const target = document.querySelector(selector);
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, { selector, bytes: [...readFileSync(path)], name: basename(path) });
}

async function openData(page) {
  await openSettled(page, file);
  await page.click('#tab-data');
  await page.waitForSelector('#schema-card');
  await page.waitForFunction(() => /\bblocks\b/.test(document.querySelector('#panel-data').dataset.loaded || ''));
}

// Waits for the schema card to name `n` of the file's types. The Data view is built again when
// the schemas change: mark() tags the card shown now, and the wait is for a card built after.
const mark = (page) => page.evaluate(() => { document.querySelector('#schema-card').dataset.old = 'true'; });
// (The demo's RobotState and OperatorComment are in the test schemas, its ImageResponse is not.)
const named = (page, some) => page.waitForFunction((want) => {
  const card = document.querySelector('#schema-card');
  return card && !card.dataset.old && card.dataset.state !== 'loading' && (Number(card.dataset.named) > 0) === want &&
    /\bblocks\b/.test(document.querySelector('#panel-data').dataset.loaded || '');
}, some, { timeout: 60_000 });

// The first RobotState block decoded, its payload opened down `keys` (the tree builds a node's
// children when it is opened); the record's text.
async function firstRecord(page, keys = ['payload', 'message', 'kinematic_state', 'joint_states', '3', 'position']) {
  const row = page.locator('#data-table tbody tr.expandable').first();
  await row.waitFor();
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  const record = page.locator('#data-table tr.detail .data-record').first();
  await page.waitForFunction(() => {
    const box = document.querySelector('#data-table tr.detail .data-record');
    return box && !/Decoding/.test(box.textContent);
  });
  // Each key is looked for below the node opened before it.
  await record.evaluate(async (box, path) => {
    let at = box;
    for (const key of path) {
      const next = [...at.querySelectorAll('details.rv-node')].find((d) => d.querySelector(':scope > summary > .rv-key')?.textContent === key);
      if (!next) return;
      if (!next.open) {
        next.open = true;
        await new Promise((resolve) => next.addEventListener('toggle', resolve, { once: true }));
      }
      at = next;
    }
  }, keys);
  await page.locator('#schema-card').scrollIntoViewIfNeeded();
  return record.textContent();
}

// The plot's field list for the RobotState series, filtered by `needle`.
async function plotFields(page, needle) {
  await page.click('#tab-plots');
  await page.waitForSelector('#plot-source option', { state: 'attached' });
  const value = await page.$eval('#plot-source', (select) => [...select.options].find((o) => /RobotState/.test(o.textContent))?.value);
  assert.ok(value, 'the RobotState series is offered for plotting');
  await page.selectOption('#plot-source', value);
  await page.click('#plot-fields-summary');
  await page.fill('#plot-field-filter', needle);
  await page.waitForFunction(() => document.querySelectorAll('#plot-field-list input').length > 0, null, { timeout: 60_000 });
  return page.$$eval('#plot-field-list input', (boxes) => boxes.map((b) => b.value));
}

test('BDDF RobotState: a dropped descriptor set names fields in the Data view and the plot, is remembered, and Forget drops it', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ viewport: { width: 1280, height: 900 } });
  await openData(page);
  assert.match(await page.textContent('#schema-status'), /Field names need a schema/);
  const before = await firstRecord(page, ['payload', 'fields', '0']);
  assert.doesNotMatch(before, /kinematic_state/, 'without a schema: field numbers');
  assert.match(before, /wire_type/);
  await screenshot(page, 'protobuf-before');
  const numbered = await plotFields(page, '.');
  assert.ok(numbered.some((f) => /^\d+(\[\d+\])?(\.\d+(\[\d+\])?)+$/.test(f)), `field-number paths: ${numbered.slice(0, 5)}`);
  await page.keyboard.press('Escape');

  await page.click('#tab-data');
  await mark(page);
  await dropFile(page, '#schema-drop', descriptors);
  await named(page, true);
  assert.equal(await page.evaluate(() => document.body.dataset.fileName), basename(file), 'the dropped set did not open as a file');
  assert.match(await page.textContent('#schema-status'), /Field names, enums by name/);
  assert.match(await page.textContent('#schema-table'), /bosdyn\.desc/);
  const after = await firstRecord(page);
  assert.match(after, /kinematic_state/);
  assert.match(after, /joint_states/);
  assert.match(after, /"fr\.hx"/, 'a repeated field\'s element (joint_states[3])');
  assert.match(after, /value/, 'the nested DoubleValue');
  const power = await firstRecord(page, ['payload', 'message', 'power_state']);
  assert.match(power, /motor_power_state"STATE_ON"/, 'an enum by name');
  await screenshot(page, 'protobuf-named');

  const fields = await plotFields(page, 'joint_states[3].position');
  assert.ok(fields.includes(FIELD), `the plot offers ${FIELD}: ${fields.slice(0, 5)}`);
  await page.click(`#plot-field-list input[value="${FIELD}"]`);
  await page.keyboard.press('Escape');
  await page.click('#plot-run');
  await page.waitForFunction((f) => {
    const card = document.querySelector('#plot-card');
    return card.dataset.state === 'done' && card.dataset.fields.split(',').includes(f);
  }, FIELD, { timeout: 60_000 });
  assert.ok(Number(await page.getAttribute('#plot-card', 'data-count')) > 0, 'points plotted');
  await screenshot(page, 'protobuf-plot');

  // Export by name: byte for byte what `logscope export --descriptors` writes.
  await page.click('#tab-extract');
  await page.selectOption('#export-source', '0');
  await page.click('#export-run');
  await page.waitForSelector('#output-result[data-state="done"], #output-result[data-state="failed"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'done', await page.textContent('#output-result'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#output-download')]);
  const csv = join(dir, 'page-robot-state.csv');
  await download.saveAs(csv);
  const expected = execFileSync(cli, ['export', file, '--series', '0', '--descriptors', descriptors], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
  assert.ok(readFileSync(csv).equals(expected), 'the page\'s export is the CLI\'s, by name');
  assert.match(readFileSync(csv, 'utf8').split('\n')[0], /kinematic_state\.joint_states\[3\]\.position\.value/);
  await screenshot(page, 'protobuf-export');

  // Remembered: after a reload the same file is named without asking.
  await page.reload();
  await openData(page);
  await named(page, true);
  assert.match(await page.textContent('#schema-table'), /bosdyn\.desc/);
  assert.match(await firstRecord(page), /kinematic_state/);
  await screenshot(page, 'protobuf-remembered');

  await mark(page);
  await page.click('#schema-table .schema-forget');
  await named(page, false);
  await page.waitForFunction(() => !document.querySelector('#schema-table'));
  assert.match(await page.textContent('#schema-status'), /Field names need a schema/);
  assert.doesNotMatch(await firstRecord(page), /kinematic_state/);
  await screenshot(page, 'protobuf-forgotten');
  await page.reload();
  await openData(page);
  await page.waitForFunction(() => document.querySelector('#schema-card')?.dataset.state === 'idle');
  assert.equal(await page.$('#schema-table'), null, 'forgotten after a reload too');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('BDDF RobotState: a chosen folder of .proto files names the fields; a broken file says where', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ colorScheme: 'dark' });
  await openData(page);
  await mark(page);
  await page.setInputFiles('#schema-folder', protoRoot);
  await named(page, true);
  assert.match(await page.textContent('#schema-table'), /\.proto files/);
  assert.match(await firstRecord(page), /kinematic_state/);
  await screenshot(page, 'protobuf-folder-dark');
  // A descriptor set that is not one: an error, nothing remembered beside the folder.
  const junk = join(dir, 'junk.desc');
  execFileSync('sh', ['-c', `printf '\\377\\377\\377' > '${junk}'`]);
  await page.setInputFiles('#schema-file', junk);
  await page.waitForFunction(() => !document.querySelector('#schema-error').hidden);
  assert.match(await page.textContent('#schema-error'), /junk\.desc: not a FileDescriptorSet/);
  assert.equal(await page.locator('#schema-table tbody tr').count(), 1);
  await screenshot(page, 'protobuf-error-dark');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// MCAP protobuf channels carry their schemas: the page reads such a file in the full module and
// the Data view decodes them by name (a real file: skipped without ../shared/samples).
test('MCAP protobuf channel: messages decoded by name from the file\'s own descriptor set', async (t) => {
  const path = sample('mcap', 'rerun-io__rerun__simple-protobuf.mcap');
  if (skipUnless(t, { samples: true, cli: true }) || !existsSync(path)) return t.skip?.('the rerun protobuf sample is absent');
  const page = await env.newPage();
  await openSettled(page, path);
  await page.click('#tab-data');
  await page.waitForSelector('#data-channel');
  const pose = await page.$eval('#data-channel', (select) => [...select.options].find((o) => /protobuf/.test(o.textContent))?.value);
  await page.selectOption('#data-channel', pose);
  const row = page.locator('#data-table tbody tr[data-topic="pose"]').first();
  await row.waitFor({ timeout: 60_000 });
  assert.equal(await row.getAttribute('data-decoded'), 'yes', 'decoded by its schema, not bytes only');
  await row.click();
  await page.waitForFunction(() => {
    const box = document.querySelector('#data-table tr.detail .data-record');
    return box && !/Decoding/.test(box.textContent);
  });
  // foxglove.PoseInFrame {timestamp, frame_id, pose}: its field names, not field numbers.
  const text = await page.locator('#data-table tr.detail .data-record').first().textContent();
  assert.match(text, /frame_id/);
  assert.match(text, /pose\{/);
  await screenshot(page, 'protobuf-mcap');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
