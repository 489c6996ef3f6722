// Spot's camera images in a BDDF (codec/views/image_spot.cpp): the demo file's GetImageResponse
// series holds a grey fisheye camera and a depth camera. Without schemas the Images tab says how
// to give them; once a descriptor set with the SDK's image.proto field numbers is dropped on the
// Data tab's schema card, the tab is built again and each camera is an image topic whose canvas
// equals the PNG `logscope frames --descriptors` writes for the same frame (decoded by python3-pil).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, screenshot, cli, root, skipUnless } from './helpers.mjs';
import { havePil, cliFrames, shownFrame, sameAsCli, selectTopic } from './image-frames.mjs';

const FISHEYE = 'spot/images#frontleft_fisheye_image';
const DEPTH = 'spot/images#frontleft_depth';
let env, dir, file, descriptors;

before(async () => {
  if (skipUnless({ skip() {} }, { cli: true })) return;
  env = await start();
  dir = mkdtempSync(join(tmpdir(), 'logscope-web-spot-images-'));
  file = join(dir, 'spot_images.bddf');
  execFileSync(cli, ['make-demo-bddf', file, '--size-mb', '1']);
  descriptors = join(dir, 'bosdyn.desc');
  execFileSync('protoc', ['-I', join(root, 'tests', 'fixtures', 'proto'), `--descriptor_set_out=${descriptors}`, '--include_imports',
    'bosdyn/api/image.proto']);
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('images: Spot\'s cameras in a BDDF, named once the schemas are given, equal logscope frames', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  if (!havePil) return t.skip('python3-pil is missing');
  const page = await env.newPage();
  await openSettled(page, file);
  await page.click('#tab-images');
  await page.waitForFunction(() => /BDDF stores no schema/.test(document.querySelector('#panel-images')?.textContent || ''), null, { timeout: 60_000 });
  await screenshot(page, 'images-spot-no-schema');

  // The schema card takes the descriptor set; the Images tab is built again with it.
  await page.click('#tab-data');
  await page.waitForSelector('#schema-card');
  await page.setInputFiles('#schema-file', descriptors);
  await page.waitForFunction(() => Number(document.querySelector('#schema-card')?.dataset.named) > 0, null, { timeout: 60_000 });
  await page.click('#tab-images');
  const fisheye = await shownFrame(page, { topic: FISHEYE });
  assert.equal(fisheye.index, '0');
  assert.equal(fisheye.kind, 'rgba');
  assert.match(fisheye.info, /FORMAT_RAW PIXEL_FORMAT_GREYSCALE_U8 · 256 × 192/);
  const topics = await page.$$eval('#image-topic option', (options) => options.map((o) => o.value));
  assert.deepEqual(topics, [FISHEYE, DEPTH]);
  const flags = ['--descriptors', descriptors];
  sameAsCli(fisheye, cliFrames(file, FISHEYE, flags).files);
  await page.focus('#images-card');
  await page.keyboard.press('ArrowRight');
  const next = await shownFrame(page, { index: '1' });
  assert.notEqual(next.pixels, fisheye.pixels, 'the scene moves from frame to frame');
  sameAsCli(next, cliFrames(file, FISHEYE, flags).files);
  await screenshot(page, 'images-spot-fisheye');

  // Depth (DEPTH_U16 at 1000 per metre): the colour map as the CLI's PNG, a legend in mm.
  const depth = await selectTopic(page, DEPTH);
  sameAsCli(depth, cliFrames(file, DEPTH, flags).files);
  assert.match(await page.textContent('#image-legend'), /mm/);
  await screenshot(page, 'images-spot-depth');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
