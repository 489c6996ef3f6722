// What logscope and @mcap/core (the reference TypeScript reader) each see in an MCAP file, in one
// comparable shape: messages (channel, sequence, log/publish time, payload SHA1), schemas,
// channels, attachments and metadata. logscope's side comes from the CLI's query table
// (`logscope query FILE NAME --args JSON`), the same queries the page calls.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, fstatSync } from 'node:fs';
import { McapIndexedReader, McapStreamReader } from '@mcap/core';
import { loadDecompressHandlers } from '@mcap/support';
import { cliPath, runCli } from '../wasm/support.mjs';

export { cliPath, runCli };

const MAGIC = Buffer.from([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);
export function isMcap(path) {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(8);
  const got = readSync(fd, head, 0, 8, 0);
  closeSync(fd);
  return got === 8 && head.equals(MAGIC);
}

const sha1 = (bytes) => createHash('sha1').update(bytes).digest('hex');
const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
function messageRow(channel, sequence, logTime, publishTime, digest) {
  const row = { channel, sequence, log_time: String(logTime), publish_time: String(publishTime), sha1: digest };
  row.key = `${String(channel).padStart(5, '0')} ${row.log_time.padStart(20, '0')} ${String(sequence).padStart(10, '0')} ${digest}`;
  return row;
}
const sorted = (rows) => rows.sort(byKey).map(({ key, ...rest }) => rest);

function query(path, name, args = {}) {
  const { status, stdout } = runCli(['query', path, name, '--args', JSON.stringify(args)]);
  if (status !== 0) throw new Error(`logscope query ${name} ${path}: exit ${status}`);
  return JSON.parse(stdout);
}

// logscope's view, through its queries (messages a page of 10000 at a time).
export function logscopeView(path) {
  const messages = [];
  for (let first = 0; ; ) {
    const page = query(path, 'messages', { first, count: 10000, sha1: true });
    for (const m of page.messages) messages.push(messageRow(m.channel, m.sequence, m.log_time, m.publish_time, m.sha1));
    first += page.count;
    if (!page.more || page.count === 0) break;
  }
  const { stdout } = runCli(['info', path, '--json']);
  const tables = Object.fromEntries(JSON.parse(stdout).summary.tables.map((t) => [t.name, t]));
  const schemas = (tables.schemas?.rows ?? []).map(([id, name, encoding, size]) => ({ id, name, encoding, size }));
  const channels = query(path, 'channels').channels.map((c) => ({
    id: c.id, topic: c.topic, schema_id: c.schema_id, message_encoding: c.message_encoding, metadata: c.metadata,
  }));
  const attachments = query(path, 'attachments', { count: 10000 }).attachments.map((a) => ({
    name: a.name, media_type: a.media_type, size: a.size, log_time: a.log_time, create_time: a.create_time,
  }));
  const metadata = query(path, 'metadata', { count: 10000 }).metadata.map((d) => ({ name: d.name, metadata: d.metadata }));
  return { messages: sorted(messages), schemas: sortById(schemas), channels: sortById(channels), attachments, metadata };
}

const sortById = (list) => list.sort((a, b) => a.id - b.id);
const pairs = (map) => Object.fromEntries([...map.entries()]);

// A Readable over a file for McapIndexedReader (reads what it asks for, never the whole file).
function fileReadable(fd) {
  const size = BigInt(fstatSync(fd).size);
  return {
    size: async () => size,
    read: async (offset, length) => {
      const out = new Uint8Array(Number(length));
      const got = readSync(fd, out, 0, out.length, Number(offset));
      if (got !== out.length) throw new Error(`short read at ${offset}`);
      return out;
    },
  };
}

let handlers;
async function decompressHandlers() {
  handlers ??= await loadDecompressHandlers();
  return handlers;
}

// @mcap/core's McapIndexedReader: needs a summary (throws otherwise). Its messages come from the
// chunk indexes, so a file whose messages are outside chunks lists none of them here.
export async function indexedView(path) {
  const fd = openSync(path, 'r');
  try {
    const reader = await McapIndexedReader.Initialize({ readable: fileReadable(fd), decompressHandlers: await decompressHandlers() });
    const messages = [];
    for await (const m of reader.readMessages({ validateCrcs: true }))
      messages.push(messageRow(m.channelId, m.sequence, m.logTime, m.publishTime, sha1(m.data)));
    const schemas = [...reader.schemasById.values()].map((s) => ({ id: s.id, name: s.name, encoding: s.encoding, size: s.data.length }));
    const channels = [...reader.channelsById.values()].map((c) => ({
      id: c.id, topic: c.topic, schema_id: c.schemaId, message_encoding: c.messageEncoding, metadata: pairs(c.metadata),
    }));
    const attachments = [];
    for await (const a of reader.readAttachments({ validateCrcs: true }))
      attachments.push({ name: a.name, media_type: a.mediaType, size: a.data.length, log_time: String(a.logTime), create_time: String(a.createTime) });
    const metadata = [];
    for await (const d of reader.readMetadata()) metadata.push({ name: d.name, metadata: pairs(d.metadata) });
    return {
      messages: sorted(messages), schemas: sortById(schemas), channels: sortById(channels), attachments, metadata,
      chunkIndexes: reader.chunkIndexes.length, statistics: reader.statistics,
    };
  } finally {
    closeSync(fd);
  }
}

// @mcap/core's McapStreamReader over the whole file: every record in file order, chunks expanded,
// every CRC checked. Throws on damage it cannot read past.
export async function streamView(path) {
  const reader = new McapStreamReader({ decompressHandlers: await decompressHandlers(), validateCrcs: true });
  reader.append(readFileSync(path));
  const messages = [], schemas = new Map(), channels = new Map(), attachments = [], metadata = [];
  for (let record; (record = reader.nextRecord()); ) {
    if (record.type === 'Message') messages.push(messageRow(record.channelId, record.sequence, record.logTime, record.publishTime, sha1(record.data)));
    else if (record.type === 'Schema' && !schemas.has(record.id)) schemas.set(record.id, { id: record.id, name: record.name, encoding: record.encoding, size: record.data.length });
    else if (record.type === 'Channel' && !channels.has(record.id))
      channels.set(record.id, { id: record.id, topic: record.topic, schema_id: record.schemaId, message_encoding: record.messageEncoding, metadata: pairs(record.metadata) });
    else if (record.type === 'Attachment')
      attachments.push({ name: record.name, media_type: record.mediaType, size: record.data.length, log_time: String(record.logTime), create_time: String(record.createTime) });
    else if (record.type === 'Metadata') metadata.push({ name: record.name, metadata: pairs(record.metadata) });
  }
  return {
    messages: sorted(messages), schemas: sortById([...schemas.values()]), channels: sortById([...channels.values()]), attachments, metadata,
    done: reader.done(),
  };
}
