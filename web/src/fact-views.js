// How facts filled in later (report.later) are shown once their read is done, beyond what their
// unit already says (docs/report.md): a label, words after the value, or a rendering of their
// own; and what the read that fills them in is called while it is pending. A fact not listed
// here is shown by its unit, under its key in words. They are shown in the order of this table,
// then in the report's order. (Facts the summary has at once are always shown by their unit.)
import { h, formatCount } from './dom.js';

// Words for the pending fact while the read runs or waits (a fact's `reading` overrides them).
export const DEFAULT_READING = { note: 'reading…', cost: 'needs a read of the whole file', ask: 'Read it', again: 'Read it' };

// details.compression_by_codec: [{compression, chunks, uncompressed, compressed}]
const codecsOf = (report) => (Array.isArray(report.details?.compression_by_codec) ? report.details.compression_by_codec : []);

// "lz4 · 5 of 5 chunks", or "bz2 3, lz4 2" when chunks use different codecs.
function compressionFact(value, report) {
  const d = report.details || {};
  const codecs = codecsOf(report);
  // A report without chunk counts (an MCAP's value says them: "zstd (120912 chunks)") adds none.
  const counted = codecs.length > 0 || d.chunks !== undefined;
  const chunks = d.chunks ?? codecs.reduce((n, x) => n + (x.chunks || 0), 0);
  const byCodec = codecs.length > 1 ? codecs.map((x) => `${x.compression} ${formatCount(x.chunks)}`).join(', ') : `${formatCount(codecs[0]?.chunks ?? chunks)} of ${formatCount(chunks)} chunks`;
  return h('div.fact', { dataset: { key: 'compression' } }, h('dt', {}, 'Compression'),
    h('dd', {}, h('span.mono', {}, String(value ?? d.compression ?? '—')), counted ? h('span.muted', {}, ` · ${byCodec}`) : null));
}

// A table beside the other index tables when chunks use more than one codec.
function compressionTable(report) {
  const codecs = codecsOf(report);
  if (codecs.length < 2) return null;
  return {
    name: 'compression',
    columns: ['compression', 'chunks', 'uncompressed', 'compressed', 'ratio'],
    units: ['text', 'count', 'bytes', 'bytes', 'ratio'],
    rows: codecs.map((x) => [x.compression, x.chunks, x.uncompressed, x.compressed, x.uncompressed ? x.compressed / x.uncompressed : null]),
  };
}

// key -> {label, after: text after the value, render(value, report) -> node, table(report),
//         reading: {note, cost, ask, again} (see DEFAULT_READING; a format's page module may
//         name its own: FormatPage.laterReading)}
export const FACT_VIEWS = {
  compression: {
    render: compressionFact,
    table: compressionTable,
    reading: { note: 'reading chunk headers…', cost: 'needs a read of every chunk header', ask: 'Read them', again: 'Read chunk headers' },
  },
  compression_ratio: { label: 'Compression ratio', after: ' of the uncompressed size' },
  // A rosbag2 bag's first view takes the per-topic counts from metadata.yaml (they need a pass
  // over the messages table's leaves); the exact table replaces the summary's once read.
  topic_counts: {
    label: 'Topic counts',
    table: (report) => (report.tables || []).find((t) => t.name === 'topics') || null,
    reading: { note: 'counting per topic…', cost: 'reads every row', ask: 'Count them', again: 'Count them' },
  },
  uncompressed: { label: 'Uncompressed size' },
  compressed: { label: 'Compressed size' },
};
