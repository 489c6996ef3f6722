// The result of an extract, repair or export (output-run.js), said as the CLI says it: what was
// written and how big, what was kept and dropped, the codec's check of the written file, and a
// link that downloads it (an object URL of the File in the browser's private storage).
import { h, clear, formatBytes, formatCount, hexOffset, plural } from './dom.js';

// The memory cap without OPFS, as it is named ("256 MB"): the job worker's answer states it
// (output-job.js MEMORY_CAP, which is fetched with the first output, not imported here).
const capText = (bytes) => (bytes ? `${Math.round(Number(bytes) / (1024 * 1024))} MB` : 'memory cap');

// (data-memory: the checking worker's peak WebAssembly memory, for bench/scale-end.mjs)
function verdict(check) {
  if (!check) return null;
  if (check.cancelled) return h('p.check-status.tone-warn#output-verdict', { dataset: { verdict: 'cancelled' } }, 'The check of the written file was cancelled; the file itself is complete.');
  if (check.error) return h('p.check-status.tone-bad#output-verdict', { dataset: { verdict: 'error' } }, `The written file could not be checked: ${check.error}`);
  const clean = check.errors + check.warnings === 0;
  const parts = [`Check of the written file: ${check.format}`];
  if (check.checksum && check.checksum !== 'not_applicable') parts.push(`checksum ${check.checksum}`);
  parts.push(plural(check.errors, 'error'), plural(check.warnings, 'warning'));
  return [
    h(`p.check-status.${clean ? 'tone-ok' : 'tone-bad'}#output-verdict`, { dataset: { verdict: clean ? 'valid' : 'problems', errors: check.errors, warnings: check.warnings, checksum: check.checksum ?? '', memory: check.memory } },
      h('span.dot'), h('span', {}, parts.join(', '), ' — ', h('strong', {}, clean ? 'the written file is valid' : 'the written file has problems'))),
    check.problems?.length ? h('ul.output-problems', {}, check.problems.map((p) => h('li', {}, h('span.mono', {}, `${p.severity} @${hexOffset(p.offset)} ${p.code}: `), p.message))) : null,
  ];
}

const lines = (title, items, id) => h('div.output-lines', {}, h('h4', {}, title),
  items.length ? h(`ul#${id}`, {}, items.map((line) => h('li', {}, line))) : h(`p.muted#${id}`, {}, 'nothing'));

// A count's key as words: "data_blocks" → 2 data blocks, 1 data block; "series" is its own singular.
const counted = (n, key) => {
  const words = key.replace(/_/g, ' ');
  return words.endsWith('series') ? `${formatCount(n)} ${words}` : plural(n, words.replace(/s$/, ''));
};

// What the written file holds, from its check: messages, blocks, frames...
function counts(check) {
  const entries = Object.entries(check?.counts || {});
  return entries.length ? h('span', {}, ' · ', entries.map(([k, v]) => counted(v, k)).join(', ')) : null;
}

export class OutputResult {
  constructor(root, { onDiscard }) {
    this.root = root;
    this.onDiscard = onDiscard;
    this.url = null;
  }

  // Lets go of the object URL of the file shown before.
  release() {
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
  }

  show(...children) {
    this.root.hidden = false;
    clear(this.root).append(...children.flat(2).filter(Boolean));
  }

  hide() {
    this.release();
    this.root.hidden = true;
    clear(this.root);
    delete this.root.dataset.state;
  }

  running(title, what) {
    this.release();
    this.root.dataset.state = 'running';
    this.show(h('div.card-head', {}, h('h3', {}, title)), h('p.muted', {}, `${what}… The bar above shows the progress; Cancel stops it and keeps nothing.`));
  }

  // outcome: from runOutput; what: {title, downloadName, job}
  render(outcome, { title, downloadName, job }) {
    this.release();
    this.root.dataset.state = outcome.state;
    const head = h('div.card-head', {}, h('h3', {}, title));
    const result = outcome.written?.result || {};
    if (outcome.state === 'cancelled') return this.show(head, h('p.muted#output-message', {}, 'Cancelled; nothing was kept.'));
    if (outcome.state !== 'done') {
      return this.show(head, h('p.error-text#output-message', {}, result.error || outcome.error || 'Nothing could be written.'), h('p.muted.small', {}, 'Nothing was written.'));
    }
    const { written, check, file } = outcome;
    const rows = job === 'export'
      ? h('span', {}, ' · ', h('span#output-rows', { dataset: { rows: result.rows } }, plural(result.rows, 'row')))
      : counts(check);
    /** @type {import('./dom.js').Child[]} */
    const parts = [head,
      h('p.output-line', {}, h('strong.mono', {}, downloadName), ' · ', h('span#output-size', { dataset: { size: written.size } }, formatBytes(written.size)), rows)];
    const facts = { storage: written.storage, peakHeld: written.peakHeld ?? '', cap: written.cap ?? '', received: written.streamed?.received ?? '', peakQueued: written.streamed?.peakQueued ?? '' };
    if (written.storage === 'download' || !file) {
      // Streamed to the user's Downloads as it was written (output-job.js): nothing is kept here.
      parts.push(h('p.small#output-storage', { dataset: facts },
        h('strong', {}, `Saved to your Downloads as ${downloadName}`), ` as it was written: this browser gives the page no private file storage (OPFS), and the output is larger than the ${capText(written.cap)} this tab keeps in memory. `,
        job === 'export' ? '' : 'It was not checked here, since no copy was kept to read back: open the downloaded file in logscope to check it.'));
    } else {
      this.url = URL.createObjectURL(file);
      const download = h('a.button.primary#output-download', { href: this.url, download: downloadName }, `Download ${downloadName}`);
      const discard = h('button.button#output-discard', { type: 'button', onclick: () => this.onDiscard() }, 'Remove');
      const where = written.storage === 'opfs'
        ? 'Kept in this browser\'s private storage for this site (not uploaded) until you remove it, write another, or leave the page.'
        : written.kept
          ? `Held by this tab: this browser gives the page no private file storage (OPFS), and the output could not go straight to your Downloads: ${written.kept}. Past ${capText(written.cap)} it is kept in pieces the browser holds in memory or on disk, so a much larger output may not fit: that is the browser's limit, not the file's.`
          : `Held by this tab: this browser gives the page no private file storage (OPFS), so an output up to ${capText(written.cap)} is kept in memory; ${written.noStream
            ? `a larger one cannot go straight to your Downloads here (${written.noStream}): past ${capText(written.cap)} it is held in pieces the browser keeps in memory or on disk, as far as the browser allows.`
            : 'a larger one goes straight to your Downloads as it is written.'}`;
      parts.push(h('div.output-actions', {}, download, discard, h('span.muted.small#output-storage', { dataset: { ...facts, kept: written.kept || '' } }, where)));
    }
    if (job === 'export') {
      if (result.json_columns?.length) parts.push(h('p.small.muted', {}, `${plural(result.json_columns.length, 'column')} hold a whole array as one JSON cell: ${result.json_columns.slice(0, 8).join(', ')}${result.json_columns.length > 8 ? ', …' : ''}`));
      const problems = (result.problems || []).filter((p) => p.severity !== 'info');
      if (problems.length) {
        parts.push(h('div.output-lines', {}, h('h4', {}, 'Problems met while reading'),
          h('ul.output-problems', {}, problems.slice(0, 50).map((p) => h('li', {}, h('span.mono', {}, `${p.severity} @${hexOffset(p.offset)} ${p.code}: `), p.message)))));
      }
    } else {
      parts.push(verdict(check), h('div.output-columns', {}, lines('Kept', result.kept || [], 'output-kept'), lines('Dropped', result.dropped || [], 'output-dropped')));
    }
    this.show(...parts);
  }
}
