// The Images tab's frames against `logscope frames` (images.test.mjs, spot-images.test.mjs): the
// CLI's files for a topic, PIL's reading of them, and the frame the tab shows with its pixels.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './helpers.mjs';

export const havePil = (() => {
  try { execFileSync('/usr/bin/python3', ['-c', 'import PIL']); return true; } catch { return false; }
})();

// An image file as PIL reads it: its size and its RGBA bytes.
export function pil(path) {
  const out = execFileSync('/usr/bin/python3', ['-c',
    'import sys; from PIL import Image; i = Image.open(sys.argv[1]).convert("RGBA"); sys.stdout.write("%d %d\\n" % i.size); sys.stdout.flush(); sys.stdout.buffer.write(i.tobytes())', path],
  { maxBuffer: 256 * 1024 * 1024 });
  const newline = out.indexOf(10);
  const [width, height] = out.subarray(0, newline).toString().split(' ').map(Number);
  return { width, height, rgba: out.subarray(newline + 1) };
}

// `logscope frames` of a topic into a fresh folder: file name by time (ns) -> path. The folders
// go when the test file's process ends (callers that keep only the files left seven in /tmp a run).
const folders = [];
process.once('exit', () => { for (const dir of folders) rmSync(dir, { recursive: true, force: true }); });
export function cliFrames(path, topic, extra = []) {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-images-'));
  folders.push(dir);
  try { execFileSync(cli, ['frames', path, '--topic', topic, '-o', dir, ...extra], { stdio: 'ignore' }); } catch { /* exit 1: some frames skipped */ }
  const files = new Map();
  for (const name of readdirSync(dir)) {
    const m = /^(\d+)\.(\d{9})(?:-\d+)?\.(png|jpg|webp)$/.exec(name);
    if (m && !name.includes('-')) files.set(`${m[1]}${m[2]}`.replace(/^0+(?=\d)/, ''), join(dir, name));
  }
  return { dir, files };
}

// The frame the tab shows once its answer is in and its dataset has the values `want` gives
// (`notTimeNs`: another time than this one): the dataset, and the hidden frame canvas's pixels (base64).
export async function shownFrame(page, want = {}) {
  await page.waitForFunction((w) => {
    const panel = document.querySelector('#panel-images');
    if (!panel?.dataset.frames || document.body.dataset.job) return false;
    return Object.entries(w).every(([key, value]) => (key === 'notTimeNs' ? panel.dataset.timeNs !== value : panel.dataset[key] === value));
  }, want, { timeout: 60_000 });
  return page.evaluate(() => {
    const panel = document.querySelector('#panel-images');
    const canvas = document.querySelector('#image-frame');
    let pixels = '';
    if (canvas.width && canvas.height) {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let text = '';
      for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode(...data.subarray(i, i + 0x8000));
      pixels = btoa(text);
    }
    return { ...panel.dataset, canvasWidth: canvas.width, canvasHeight: canvas.height, pixels,
      error: document.querySelector('#image-error')?.textContent || '', info: document.querySelector('#image-info')?.textContent || '' };
  });
}

// The shown frame against the CLI's file for the same time.
export function sameAsCli(shown, files) {
  const file = files.get(shown.timeNs);
  assert.ok(file, `logscope frames wrote no file for ${shown.timeNs}`);
  const ref = pil(file);
  assert.equal(shown.canvasWidth, ref.width);
  assert.equal(shown.canvasHeight, ref.height);
  if (file.endsWith('.png')) assert.ok(Buffer.from(shown.pixels, 'base64').equals(ref.rgba), `the canvas differs from ${file}`);
  return ref;
}

export async function selectTopic(page, topic) {
  await page.selectOption('#image-topic', topic);
  return shownFrame(page, { topic });
}

