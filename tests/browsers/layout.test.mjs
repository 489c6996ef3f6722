// The layout in all three engines (Firefox ESR, WebKitGTK, Chromium), on the page's own views
// drawn with given data (no codec needed): a SHA1 digest stays on one line in the checksum card,
// and the timeline's bars have edges on whole pixels (no light seams through a busy row) and rows
// striped as their labels. WebKitGTK rounds a monospace glyph's advance to whole pixels (12.5 px
// DejaVu Sans Mono: 8 px a digit, 7.5 in the others), so its digests are 6 % wider; an edge inside
// a pixel is blended with the background, which Firefox showed as gaps in the timeline's bands.
// Pictures: test-results/screenshots/layout-*-<engine>.png.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engines, launch } from './driver.mjs';

const SHA1 = '3f786850e387550fdab836ed7e6dc881de23001b';

for (const engine of ['firefox', 'webkit', 'chromium']) {
  describe(engine, { skip: engines[engine] ?? false }, () => {
    let b;
    before(async () => { b = await launch(engine); });
    after(async () => { await b?.close(); });

    test('a SHA1 digest stays on one line in the checksum card', async () => {
      await b.open();
      const lines = await b.evaluate(async (digest) => {
        const { renderChecksum } = await import('./src/summary.js');
        document.querySelector('#welcome').hidden = true;
        document.querySelector('#workspace').hidden = false;
        document.querySelector('#overview-grid').hidden = false;
        document.querySelector('#file-name').textContent = 'spot_walk.bddf';
        document.querySelector('#facts-slot').textContent = 'Size 2 MB';
        renderChecksum(document.querySelector('#checksum-card'), { status: 'done', result: { status: 'valid', algorithm: 'SHA1', stored: digest, computed: digest, covered_bytes: 2097152 } });
        return [...document.querySelectorAll('#checksum-card td')].filter((td) => td.textContent === digest).map((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        });
      }, SHA1);
      await b.screenshot('layout-checksum');
      assert.deepEqual(lines, [1, 1], 'the stored and the computed digest, one line each');
      await noErrors(b);
    });

    test('the timeline\'s bars have whole-pixel edges, its rows the labels\' stripes', async () => {
      await b.open();
      const drawn = await b.evaluate(async () => {
        const { renderTimeline } = await import('./src/plots/timeline.js');
        const { TimeRange } = await import('./src/plots/range.js');
        document.querySelector('#welcome').hidden = true;
        document.querySelector('#workspace').hidden = false;
        for (const p of document.querySelectorAll('[role=tabpanel]')) p.hidden = p.id !== 'panel-plots';
        const card = Object.assign(document.createElement('section'), { className: 'card', id: 'timeline-card' });
        document.querySelector('#panel-plots').append(card);
        const origin = 1700000000000000000n;
        const bins = 317; // slices of a fractional width
        const names = ['/imu', '/odom', '/tf', '/camera/image', '/rosout'];
        const rows = names.map((name, r) => ({ name, detail: '', total: 1000, counts: Array.from({ length: bins }, (_, i) => 5 + ((i * (r + 3)) % 11)) }));
        const result = { t0_ns: String(origin), t1_ns: String(origin + 60000000000n), bins, bin_ns: 189000000, resolution: 'message', rows, units: {} };
        const session = { client: { call: async () => result }, result: async (/** @type {Promise<unknown>} */ p) => p };
        await renderTimeline(card, { session, range: new TimeRange(origin), signal: new AbortController().signal });
        await new Promise((ok) => requestAnimationFrame(() => ok(null)));
        const canvas = /** @type {HTMLCanvasElement} */ (document.querySelector('#timeline-canvas'));
        const ctx = canvas.getContext('2d');
        const ratio = canvas.width / canvas.clientWidth;
        // A colour as the canvas stores it.
        const probe = document.createElement('canvas').getContext('2d');
        const rgb = (css) => { probe.fillStyle = css; probe.fillRect(0, 0, 1, 1); return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)].join(','); };
        const cardColor = getComputedStyle(card).backgroundColor;
        return names.map((_, r) => {
          const li = document.querySelectorAll('#timeline-labels li')[r];
          const label = getComputedStyle(li).backgroundColor;
          const labelColor = rgb(label === 'rgba(0, 0, 0, 0)' || label === 'transparent' ? cardColor : label);
          const top = Math.floor((r * 22 + 1) * ratio);
          const stripe = [...ctx.getImageData(5, top, 1, 1).data.slice(0, 3)].join(',');
          // A line through every bar of the row (each is at least 1.5 px tall, from 2 px above its bottom).
          const line = ctx.getImageData(0, Math.floor((r * 22 + 22 - 3) * ratio), canvas.width, 1).data;
          const colours = new Set();
          for (let i = 0; i < line.length; i += 4) colours.add(`${line[i]},${line[i + 1]},${line[i + 2]}`);
          return { stripe, labelColor, colours: [...colours] };
        });
      });
      await b.screenshot('layout-timeline');
      drawn.forEach((row, r) => {
        assert.equal(row.stripe, row.labelColor, `row ${r}: striped as its label`);
        assert.ok(row.colours.length <= 2, `row ${r}: bars and background only, no blended edges: ${row.colours.join(' ')}`);
      });
      await noErrors(b);
    });
  });
}

async function noErrors(b) {
  assert.deepEqual(await b.errors(), [], `${b.engine}: no console errors`);
}
