// MCAP in the page, beyond the format table: the Data tab's decoded messages per channel, the
// topics that export and plot choose from (the summary's channels table; a topic may have several
// channels), plotting and exporting only the topics whose encodings give columns (CDR with
// ros2msg, ROS 1, protobuf, JSON); extract chooses from every topic.
import { formatCount } from '../dom.js';
import { tableRows } from './common.js';
import channelMessages from './channel-messages.js';

// Encodings whose schema fixes the export's columns (codec/mcap/payload.cpp); protobuf's columns
// come from the messages, by name from the file's own descriptor sets in the full module, which
// the page loads for such a file (embeddedSchemas, ../schemas.js); JSON's from the messages,
// with any schema or none.
const COLUMNS = new Set(['cdr/ros2msg', 'ros1/ros1msg', 'ros/ros1msg', 'protobuf/protobuf']);
// Encodings whose columns are learned from every message of the topic (payload.h
// columns_from_messages): asked in the job worker, with progress (FormatPage.slowColumns).
const LEARNED = new Set(['json', 'protobuf']);
/** @type {(c: {message_encoding: string, schema_encoding: string}) => boolean} */
const givesColumns = (c) => c.message_encoding === 'json' || COLUMNS.has(`${c.message_encoding}/${c.schema_encoding}`);
/** @type {(summary: import('../types.js').Report) => boolean} */
const hasProtobuf = (summary) => tableRows(summary, 'channels').some((c) => c.message_encoding === 'protobuf' && c.schema_encoding === 'protobuf');

/** @type {(summary: import('../types.js').Report) => (import('../types.js').FormatSource & {count: number, option: string, plottable: boolean})[]} */
const topics = (summary) => {
  const rows = /** @type {{topic: string, schema: string, schema_encoding: string, message_encoding: string, messages: number}[]} */ (tableRows(summary, 'channels'));
  /** @type {Map<string, {count: number, channels: number, schemas: Set<string>, encodings: Set<string>, plottable: boolean, learned: boolean}>} */
  const byTopic = new Map();
  for (const c of rows) {
    const seen = byTopic.get(c.topic) || { count: 0, channels: 0, schemas: new Set(), encodings: new Set(), plottable: false, learned: false };
    seen.count += c.messages || 0;
    seen.channels += 1;
    seen.schemas.add(c.schema || 'no schema');
    seen.encodings.add(c.message_encoding || 'no encoding');
    seen.plottable ||= givesColumns(c);
    seen.learned ||= LEARNED.has(c.message_encoding);
    byTopic.set(c.topic, seen);
  }
  return [...byTopic].map(([topic, t]) => ({
    key: topic, id: topic, name: topic, label: topic, count: t.count, plottable: t.plottable, message: t.learned,
    note: `${formatCount(t.count)} · ${[...t.schemas].join(', ')} · ${[...t.encodings].join(', ')}${t.channels > 1 ? ` · ${t.channels} channels` : ''}`,
    option: `${topic} (${formatCount(t.count)})`,
  }));
};

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [channelMessages],
  embeddedSchemas: hasProtobuf,
  slowColumns: (source) => Boolean(source.message),
  // Export writes columns, which only some encodings give; extract copies any channel's messages.
  sources: (summary) => topics(summary).filter((t) => t.plottable),
  extractSources: (summary) => topics(summary),
  // Busiest first: the plot looks for a field worth showing from the top.
  plotSources: (summary) => topics(summary).filter((t) => t.plottable).map((t) => ({ ...t, label: t.option })).sort((a, b) => b.count - a.count),
  // A big summary's chunk indexes are left for later (codec/mcap/reader.h): the compression facts
  // come from them, in one read.
  laterReading: { compression: { note: 'reading the chunk index…', cost: 'needs the summary\u2019s chunk index', ask: 'Read it', again: 'Read the chunk index' } },
});
