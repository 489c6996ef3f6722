// The Images tab against `logscope frames`: on the committed fixture (tests/web/fixtures/images.bag,
// written by `logscope make-demo-images`) the canvas's pixels of raw and depth frames equal the PNG
// the CLI writes for the same frame (decoded by python3-pil), JPEG frames show at their stored size,
// damaged frames are named, the arrow keys step and the cursor and the link follow. Then the real
// bags of issue 35 (skipped without ../shared/samples), with screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { start, openFile, waitOpened, screenshot, sample, root, cli, haveWasm, skipUnless } from './helpers.mjs';
import { havePil, pil, cliFrames, shownFrame, sameAsCli, selectTopic } from './image-frames.mjs';

const fixture = join(root, 'tests', 'web', 'fixtures', 'images.bag');

let env;
before(async () => { if (haveWasm) env = await start(); });
after(async () => { await env?.close(); });

test('images: the fixture\'s raw, depth and JPEG frames equal what logscope frames writes; damage is named; arrows step', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  if (!havePil) return t.skip('python3-pil is missing');
  const page = await env.newPage();
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'images.bag'), 'summary');
  await page.click('#tab-images');
  const rgb = cliFrames(fixture, '/camera/rgb');
  const first = await shownFrame(page);
  assert.equal(first.topic, '/camera/rgb');
  assert.equal(first.index, '0');
  assert.equal(first.frames, '6');
  assert.equal(first.kind, 'rgba');
  sameAsCli(first, rgb.files);
  // → steps to the next frame, and the timeline's cursor (and the link) follow it.
  await page.focus('#images-card');
  await page.keyboard.press('ArrowRight');
  const second = await shownFrame(page, { index: '1' });
  sameAsCli(second, rgb.files);
  assert.notEqual(second.pixels, first.pixels);
  await page.waitForFunction((ns) => new URL(location.href).searchParams.get('image') === `/camera/rgb@${ns}`, second.timeNs, { timeout: 5000 });
  // The last rgb frame names its encoding: an error, never a blank canvas.
  for (let i = 2; i <= 5; i++) {
    await page.keyboard.press('ArrowRight');
    await shownFrame(page, { index: String(i) });
  }
  const unknown = await shownFrame(page, { index: '5' });
  assert.equal(unknown.code, 'image.encoding.unknown');
  assert.match(unknown.error, /image\.encoding\.unknown: .*"rgb9"/);
  await screenshot(page, 'images-fixture-unknown');

  // Depth: the colour map's pixels as the CLI's PNG, a legend in mm, the value under the pointer.
  const depth = await selectTopic(page, '/camera/depth');
  sameAsCli(depth, cliFrames(fixture, '/camera/depth').files);
  assert.match(await page.textContent('#image-legend'), /mm/);
  const box = await page.locator('#image-screen').boundingBox();
  await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2);
  assert.match(await page.textContent('#image-readout'), /x \d+, y \d+: \d+ mm/);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2); // the hole
  assert.match(await page.textContent('#image-readout'), /nothing measured/);
  await screenshot(page, 'images-fixture-depth');

  // mono16 (a 12-bit sensor's values, big-endian): a grey stretch over its own range as the CLI's
  // PNG, a legend in raw units, the raw 16-bit value under the pointer (the fixture's formula).
  const mono = await selectTopic(page, '/camera/mono16');
  sameAsCli(mono, cliFrames(fixture, '/camera/mono16').files);
  assert.match(await page.textContent('#image-legend'), /mono16, raw units/);
  const grey = Buffer.from(mono.pixels, 'base64');
  assert.equal(Math.min(...grey.filter((_, i) => i % 4 === 0)), 0, 'the darkest pixel is black');
  assert.equal(Math.max(...grey.filter((_, i) => i % 4 === 0)), 255, 'the brightest is white');
  await page.mouse.move(box.x + box.width / 2 + 37, box.y + box.height / 2 + 11);
  const under = /x (\d+), y (\d+): (\d+)$/.exec(await page.textContent('#image-readout'));
  assert.ok(under, 'a raw value under the pointer');
  assert.equal(Number(under[3]), 400 + Number(under[1]) * 150 + Number(under[2]) * 17 + Number(mono.index) * 40);
  await screenshot(page, 'images-fixture-mono16');

  // JPEG: the cursor (at the last rgb frame) is past the cut one, which is named; the one before
  // is decoded by the browser at the stored image's size, within JPEG's tolerance of PIL.
  const jpegFiles = cliFrames(fixture, '/camera/compressed').files;
  const cut = await selectTopic(page, '/camera/compressed');
  assert.equal(cut.index, '3');
  assert.equal(cut.code, 'image.jpeg.cut');
  assert.match(cut.error, /no end marker/);
  assert.equal(cut.canvasWidth, 0);
  await page.click('#image-prev');
  const jpeg = await shownFrame(page, { index: '2' });
  assert.equal(jpeg.kind, 'jpeg');
  const ref = sameAsCli(jpeg, jpegFiles);
  assert.equal(jpeg.width, String(ref.width));
  const a = Buffer.from(jpeg.pixels, 'base64');
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - ref.rgba[i]));
  assert.ok(worst <= 8, `the browser's decode is within JPEG's tolerance of PIL's (worst ${worst})`);

  // Zoom by the wheel about the pointer.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -600);
  await screenshot(page, 'images-fixture-jpeg-zoomed');
  await page.context().close();
});

test('images: a link to a frame opens it', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const at = '1767225600200000000'; // the third rgb frame
  const page = await env.newPage({ query: `?nodemo&tab=images&image=${encodeURIComponent(`/camera/rgb@${at}`)}` });
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'images.bag'), 'summary');
  const shown = await shownFrame(page, { topic: '/camera/rgb' });
  assert.equal(shown.timeNs, at);
  assert.equal(shown.index, '2');
  await page.context().close();
});

const REAL = [
  ['IntelRealSense__librealsense__single_depth_color_640x480.bag', 2],
  ['jsk-ros-pkg__jsk_demos__test-button-light.bag', 1],
  ['eric-wieser__ros_numpy__test.bag', 2],
];
for (const [name, minTopics] of REAL) {
  test(`images: the real ${name}: each image topic's first frame as logscope frames writes it`, async (t) => {
    if (skipUnless(t, { samples: true, cli: true })) return;
    if (!havePil) return t.skip('python3-pil is missing');
    const path = sample('rosbag', 'real', name);
    if (!existsSync(path)) return t.skip(`${path} is missing`);
    const page = await env.newPage();
    await openFile(page, path);
    assert.equal(await waitOpened(page, name), 'summary');
    await page.click('#tab-images');
    let shown = await shownFrame(page);
    const topics = await page.$$eval('#image-topic option', (list) => list.map((o) => o.value));
    assert.ok(topics.length >= minTopics, `${topics.length} image topics`);
    for (const topic of topics) {
      if (shown.topic !== topic) shown = await selectTopic(page, topic);
      const { dir, files } = cliFrames(path, topic);
      assert.equal(shown.code, '', `${topic}: ${shown.error}`);
      sameAsCli(shown, files);
      rmSync(dir, { recursive: true, force: true });
      await screenshot(page, `images-${basename(name, '.bag')}-${topic.replace(/[^A-Za-z0-9]+/g, '_')}`);
    }
    await page.context().close();
  });
}

test('images: the real ROS 2 MCAP whose CompressedImage schema is empty says so', async (t) => {
  if (skipUnless(t, { samples: true })) return;
  const path = sample('mcap', 'Kawwshall__specops-clip-review__sample.mcap');
  if (!existsSync(path)) return t.skip(`${path} is missing`);
  const page = await env.newPage();
  await openFile(page, path);
  assert.equal(await waitOpened(page, basename(path)), 'summary');
  await page.click('#tab-images');
  await page.waitForFunction(() => /empty definition/.test(document.querySelector('#image-note')?.textContent || '') && !document.body.dataset.job, null, { timeout: 30_000 });
  await screenshot(page, 'images-Kawwshall-no-schema');
  await page.context().close();
});

// CompressedVideo: streams that Debian's ffmpeg makes (tests/reference/video_reference.py:
// testsrc, a keyframe every 5 frames, no reordering), written by `logscope make-demo-video`. The
// browser's WebCodecs decodes the frames from the keyframe before the one at the cursor.

// A shown video frame against ffmpeg's decode of frame `index` (video_reference.py's PNGs, read by
// PIL), within a lossy tolerance (the two convert YUV to RGB their own ways); another frame of the
// stream is further away, so the comparison can fail.
function sameAsFfmpeg(shown, dir, reference, index) {
  assert.equal(shown.code, '', shown.error);
  assert.equal(shown.kind, 'video');
  const ref = pil(join(dir, `frame_${String(index).padStart(3, '0')}.png`));
  assert.equal(shown.canvasWidth, ref.width);
  assert.equal(shown.canvasHeight, ref.height);
  const a = Buffer.from(shown.pixels, 'base64');
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - ref.rgba[i]);
  const mean = sum / a.length;
  assert.ok(mean <= 6, `frame ${index}: the canvas is within a lossy tolerance of ffmpeg's decode (mean difference ${mean.toFixed(2)})`);
  const other = pil(join(dir, `frame_${String((index + 3) % reference.frames).padStart(3, '0')}.png`));
  let far = 0;
  for (let i = 0; i < a.length; i++) far += Math.abs(a[i] - other.rgba[i]);
  assert.ok(far / a.length > mean, `frame ${index} is nearer its own ffmpeg decode (${mean.toFixed(2)}) than frame ${(index + 3) % reference.frames}'s (${(far / a.length).toFixed(2)})`);
}

// video_reference.py's stream of `codec` in a fresh folder, or the reason it was not made (exit 77).
function ffmpegStream(codec) {
  const dir = mkdtempSync(join(tmpdir(), `logscope-video-${codec}-`));
  try {
    execFileSync('/usr/bin/python3', [join(root, 'tests', 'reference', 'video_reference.py'), 'make', dir, '12', '5', '96x64', codec], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    if (error.status === 77) return { skipped: String(error.stderr).trim() };
    throw error;
  }
  return { dir, reference: JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) };
}

// Whether the browser decodes a codec, asked with a codec string of its own (not the view's).
const CANONICAL = { h264: 'avc1.42E01E', h265: 'hev1.1.6.L93.B0', vp9: 'vp09.00.10.08', av1: 'av01.0.04M.08' };

// H.264 and VP9 in CDR, AV1 in JSON (foxglove.CompressedVideo, data as base64), H.265 in CDR. A
// codec the browser decodes plays: frame 0 (a keyframe) and frame 7 (decoded from keyframe 5, 3
// frames) match ffmpeg's. A codec it lacks (H.265 in Debian's Chromium) is named by the view.
test('images: H.264, VP9 and AV1 (JSON, base64) CompressedVideo play and match ffmpeg; a codec the browser lacks is named', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  if (!havePil) return t.skip('python3-pil is missing');
  const skipped = [];
  for (const [codec, encoding] of [['h264', 'cdr'], ['vp9', 'cdr'], ['av1', 'json'], ['h265', 'cdr']]) {
    const made = ffmpegStream(codec);
    if (made.skipped) { skipped.push(made.skipped); continue; }
    const { dir, reference } = made;
    try {
      const file = join(dir, `video-${codec}.mcap`);
      execFileSync(cli, ['make-demo-video', file, '--stream', reference.stream, '--codec', codec, '--encoding', encoding], { stdio: 'ignore' });
      const page = await env.newPage();
      await openFile(page, file);
      assert.equal(await waitOpened(page, basename(file)), 'summary');
      await page.click('#tab-images');
      const first = await shownFrame(page, { topic: '/camera/video' });
      assert.equal(first.frames, String(reference.frames));
      const decodes = await page.evaluate((c) => typeof VideoDecoder !== 'undefined' && VideoDecoder.isConfigSupported({ codec: c }).then((r) => r.supported), CANONICAL[codec]);
      if (!decodes) {
        assert.match(first.code, /^image\.video\.no_(codec|webcodecs)$/, `${codec}: ${first.error}`);
        assert.match(first.error, new RegExp(`cannot decode ${{ h264: 'H\\.264', h265: 'H\\.265', vp9: 'VP9', av1: 'AV1' }[codec]}`));
        skipped.push(`this browser has no ${codec} decoder (the view says so)`);
        await screenshot(page, `images-video-${codec}-missing`);
      } else {
        sameAsFfmpeg(first, dir, reference, 0);
        assert.match(first.info, /a keyframe \(1 frame,/);
        await page.focus('#images-card');
        for (let i = 1; i <= 7; i++) {
          await page.keyboard.press('ArrowRight');
          await shownFrame(page, { index: String(i) });
        }
        const seventh = await shownFrame(page, { index: '7' });
        const key = Math.max(...reference.keyframes.filter((k) => k <= 7));
        assert.match(seventh.info, new RegExp(`decoded from the keyframe ${7 - key} frames before \\(${7 - key + 1} frames`));
        sameAsFfmpeg(seventh, dir, reference, 7);
        await screenshot(page, `images-video-${codec}-${encoding}`);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (skipped.length) t.diagnostic(`SKIPPED in part: ${skipped.join('; ')}`);
});

// The player (issue 35): the fixture's /camera/rgb has 6 frames 100 ms apart (the last one
// damaged, which is shown as its error). Bounds, not speeds: a busy machine may drop frames, but
// the log time shown can never run ahead of the wall clock, each frame is either shown or counted
// as dropped, and the player stops at the last frame and on Pause.
test('images: Play at 1x follows the wall clock, counts what it drops and stops at the last frame; Pause and the space bar stop it', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'images.bag'), 'summary');
  await page.click('#tab-images');
  const first = await shownFrame(page, { topic: '/camera/rgb', index: '0' });
  await page.selectOption('#image-speed', '1');
  // Every frame the first camera shows from the click on, with the page's wall clock.
  const run = await page.evaluate(() => new Promise((resolve, reject) => {
    const panel = document.querySelector('#panel-images');
    const seen = [];
    let started = false;
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (seen.at(-1)?.timeNs !== panel.dataset.timeNs) seen.push({ timeNs: panel.dataset.timeNs, index: Number(panel.dataset.index), ms: performance.now() - t0 });
      started ||= panel.dataset.playing === 'true';
      if (started && panel.dataset.playing !== 'true') {
        observer.disconnect();
        const status = document.querySelector('#image-playing');
        resolve({ seen, status: status.textContent, shown: Number(status.dataset.shown), dropped: Number(status.dataset.dropped) });
      }
    });
    observer.observe(panel, { attributes: true });
    setTimeout(() => { observer.disconnect(); reject(new Error(`still playing after 60 s: ${JSON.stringify(seen)}`)); }, 60_000);
    document.querySelector('#image-play').click();
  }));
  const start = BigInt(first.timeNs);
  let before = start;
  for (const { timeNs, ms } of run.seen) {
    const at = BigInt(timeNs);
    assert.ok(at >= before, `the frames go forward in time: ${JSON.stringify(run.seen)}`);
    assert.ok(Number(at - start) / 1e6 <= ms + 2, `the frame at +${Number(at - start) / 1e6} ms was shown ${ms.toFixed(1)} ms after Play: never ahead of the wall clock`);
    before = at;
  }
  assert.equal(run.seen.at(-1).index, 5, 'it played to the last frame');
  assert.match(run.status, /^stopped at the last frame: 1x, [\d.]+ frames\/s shown, \d+ dropped$/);
  assert.equal(run.shown + run.dropped, 5, `frames 1 to 5 each shown or dropped (${run.status})`);
  assert.equal(await page.textContent('#image-play'), 'Play');
  // The timeline's cursor (and so the link) followed it.
  await page.waitForFunction((ns) => new URL(location.href).searchParams.get('image') === `/camera/rgb@${ns}`, run.seen.at(-1).timeNs, { timeout: 5000 });

  // From the last frame Play starts again at the first; Pause, clicked as the first frame after it
  // is shown, stops it there (0.5x: the next frame is 200 ms of wall clock away).
  await page.selectOption('#image-speed', '0.5');
  const paused = await page.evaluate(() => new Promise((resolve, reject) => {
    const panel = document.querySelector('#panel-images');
    const observer = new MutationObserver(() => {
      if (panel.dataset.playing !== 'true' || !(Number(panel.dataset.index) >= 1)) return;
      observer.disconnect();
      document.querySelector('#image-play').click();
      resolve({ index: panel.dataset.index, playing: panel.dataset.playing || '', status: document.querySelector('#image-playing').textContent });
    });
    observer.observe(panel, { attributes: true });
    setTimeout(() => { observer.disconnect(); reject(new Error('no frame after the first')); }, 60_000);
    document.querySelector('#image-play').click();
  }));
  assert.equal(paused.playing, '');
  assert.match(paused.status, /^paused \(Pause\): 0\.5x, /);
  assert.ok(Number(paused.index) < 5, `paused before the last frame (at ${paused.index})`);
  await page.waitForTimeout(1500);
  const still = await shownFrame(page);
  assert.equal(still.index, paused.index, 'nothing moves once paused');
  assert.equal(still.playing, undefined);

  // The space bar on the card plays and pauses.
  const keys = await page.evaluate(() => {
    const card = document.querySelector('#images-card');
    const panel = document.querySelector('#panel-images');
    const space = () => card.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }));
    space();
    const playing = panel.dataset.playing;
    space();
    return { playing, after: panel.dataset.playing || '', status: document.querySelector('#image-playing').textContent };
  });
  assert.equal(keys.playing, 'true');
  assert.equal(keys.after, '');
  assert.match(keys.status, /^paused \(Pause\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Two cameras: the second shows its last frame at or before the time of the frame the first was
// stepped to, with its offset; stepping the second drives the first; playing the second moves
// both; each panel can be removed.
test('images: two cameras side by side show their frames at one time, each at or before it', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'images.bag'), 'summary');
  await page.click('#tab-images');
  await shownFrame(page, { topic: '/camera/rgb', index: '0' });
  await page.focus('#images-card');
  await page.keyboard.press('ArrowRight');
  const rgb1 = await shownFrame(page, { index: '1' });
  const camera = (n) => page.evaluate((number) => {
    const panel = document.querySelector(`.image-panel[data-camera="${number}"]`);
    return panel && { ...panel.dataset, offset: panel.querySelector('.image-offset').textContent, active: panel.classList.contains('image-panel-active') };
  }, n);
  const settled = (n, want) => page.waitForFunction(([number, w]) => {
    const panel = document.querySelector(`.image-panel[data-camera="${number}"]`);
    return panel?.dataset.timeNs && !document.body.dataset.job && Object.entries(w).every(([key, value]) => panel.dataset[key] === value);
  }, [n, want], { timeout: 60_000 });

  // Added: the next image topic, at the shared time (rgb frame 1): depth frame 0, 1 µs after rgb
  // frame 0 and so 99.999 ms before it (depth frame 1 is 1 µs after rgb frame 1).
  await page.click('#image-add');
  await settled(2, { topic: '/camera/depth', index: '0' });
  await page.waitForFunction(() => document.querySelector('.image-panel[data-camera="2"] .image-offset').textContent !== '');
  let second = await camera(2);
  assert.ok(BigInt(second.timeNs) <= BigInt(rgb1.timeNs));
  assert.equal(BigInt(rgb1.timeNs) - BigInt(second.timeNs), 99_999_000n);
  assert.equal(second.offset, '−100 ms');
  assert.equal((await camera(1)).offset, '0 ms');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cameras') === '/camera/depth', null, { timeout: 5000 });
  const boxes = await page.$$eval('.image-panel', (list) => list.map((p) => p.getBoundingClientRect().toJSON()));
  assert.ok(boxes[0].top === boxes[1].top && boxes[1].left >= boxes[0].right, `side by side: ${JSON.stringify(boxes)}`);

  // Stepping the second camera drives the first: rgb's last frame at or before depth frame 1.
  await page.click('#image-next-2');
  await settled(2, { index: '1' });
  await settled(1, { index: '1' });
  second = await camera(2);
  const firstCamera = await camera(1);
  assert.ok(second.active && !firstCamera.active, 'the stepped camera is the active one');
  assert.equal(BigInt(second.timeNs) - BigInt(firstCamera.timeNs), 1000n);
  assert.equal(firstCamera.offset, '−0.001 ms');
  await screenshot(page, 'images-two-cameras');

  // Playing the active (depth) camera to its last frame; rgb follows, at or before each time.
  await page.evaluate(() => {
    const panel = document.querySelector('.image-panel[data-camera="1"]');
    window.pairs = [];
    new MutationObserver(() => {
      const depth = document.querySelector('.image-panel[data-camera="2"]')?.dataset.timeNs;
      window.pairs.push([panel.dataset.timeNs, depth]);
    }).observe(panel, { attributes: true });
  });
  await page.click('#image-play');
  await page.waitForFunction(() => /^stopped at the last frame/.test(document.querySelector('#image-playing').textContent), null, { timeout: 60_000 });
  await settled(2, { index: '2' });
  await settled(1, { index: '2' });
  const pairs = await page.evaluate(() => window.pairs);
  assert.ok(pairs.length > 0);
  for (const [rgb, depth] of pairs) assert.ok(BigInt(rgb) <= BigInt(depth), `rgb ${rgb} at or before depth ${depth}`);

  // Removed: one camera again, and the link says so.
  await page.click('.image-panel[data-camera="2"] .image-remove');
  assert.equal(await page.$$eval('.image-panel', (list) => list.length), 1);
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('cameras'), null, { timeout: 5000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('images: a link with cameras opens them beside the first, at its frame\'s time', async (t) => {
  if (skipUnless(t)) return;
  const at = '1767225600100000000'; // the second rgb frame
  const page = await env.newPage({ query: `?nodemo&tab=images&image=${encodeURIComponent(`/camera/rgb@${at}`)}&cameras=${encodeURIComponent('/camera/depth,/camera/mono16')}` });
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'images.bag'), 'summary');
  await shownFrame(page, { topic: '/camera/rgb', timeNs: at });
  await page.waitForFunction(() => [...document.querySelectorAll('.image-panel')].map((p) => `${p.dataset.topic}:${p.dataset.index}`).join(' ') === '/camera/rgb:1 /camera/depth:0 /camera/mono16:0', null, { timeout: 60_000 });
  await page.context().close();
});

test('images: timeline thumbnails are the first frame of each slice, as logscope frames lists them; a click moves the cursor there', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage();
  await openFile(page, fixture);
  assert.equal(await waitOpened(page, 'images.bag'), 'summary');
  await page.click('#tab-plots');
  await page.waitForSelector('#timeline-thumbs-button:not([hidden])', { timeout: 30_000 });
  await page.click('#timeline-thumbs-button');
  await page.waitForFunction(() => document.querySelector('#timeline-thumbs')?.dataset.loaded === 'true', null, { timeout: 60_000 });
  const strips = await page.$$eval('.timeline-thumbs-canvas', (list) => list.map((c) => ({ ...c.dataset })));
  const bounds = (await page.$eval('#timeline-thumbs', (e) => e.dataset.bounds)).split(',').map(BigInt);
  assert.ok(bounds.length >= 2);
  assert.ok(strips.some((s) => s.topic === '/camera/rgb'), strips.map((s) => s.topic).join(', '));
  for (const strip of strips) {
    const { dir, files } = cliFrames(fixture, strip.topic);
    // Each slice's first frame that the CLI could write (the frames that cannot be drawn it skips,
    // and the page marks them instead).
    const times = [...files.keys()].map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const want = [];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const last = i + 2 < bounds.length ? bounds[i + 1] - 1n : bounds[i + 1];
      const first = times.find((ns) => ns >= bounds[i] && ns <= last);
      if (first !== undefined) want.push(String(first));
    }
    const drawn = strip.times ? strip.times.split(',') : [];
    if (Number(strip.problems) === 0) assert.deepEqual(drawn, want, strip.topic);
    else for (const ns of drawn) assert.ok(want.includes(ns), `${strip.topic}: ${ns} is not a slice's first frame`);
    rmSync(dir, { recursive: true, force: true });
  }
  // Drawn: the rgb strip is not blank.
  const lit = await page.$eval('.timeline-thumbs-canvas[data-topic="/camera/rgb"]', (c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return colours.size;
  });
  assert.ok(lit > 8, `${lit} colours on the rgb strip`);
  await screenshot(page, 'timeline-thumbnails');
  // A click on the first rgb thumbnail puts the cursor at its frame, and the Images tab shows it.
  const rgb = strips.find((s) => s.topic === '/camera/rgb');
  const firstNs = rgb.times.split(',')[0];
  const slot = bounds.findIndex((b, i) => i + 1 < bounds.length && BigInt(firstNs) >= b && (i + 2 === bounds.length || BigInt(firstNs) < bounds[i + 1]));
  const box = await page.$eval('.timeline-thumbs-canvas[data-topic="/camera/rgb"]', (c) => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; });
  await page.mouse.click(box.x + ((slot + 0.5) * box.width) / (bounds.length - 1), box.y + box.height / 2);
  await page.waitForFunction((ns) => document.querySelector('#timeline-card')?.dataset.cursorNs === ns, firstNs, { timeout: 5000 });
  await page.click('#tab-images');
  const shown = await shownFrame(page, { topic: '/camera/rgb' });
  assert.equal(shown.timeNs, firstNs);
  await page.context().close();
});
