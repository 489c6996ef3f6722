// The MCAP peer under node, for bench/run.mjs: @mcap/core's McapIndexedReader (the repo's
// devDependency, as tests/node use it) over a file-handle readable, decompressing with
// @mcap/support's loadDecompressHandlers (zstd and lz4 in wasm).
//   node bench/peers/mcap_core.mjs open|iterate|iterate-crc FILE
// open:        McapIndexedReader.Initialize: magic, footer, summary (what a summary needs)
// iterate:     readMessages({validateCrcs: false}): every message with its bytes, no chunk CRC
//              checked, as logscope's iterate_all does
// iterate-crc: readMessages() with its default, every chunk's CRC checked
// Prints one JSON line: seconds, messages, bytes, reads, bytes_read, peak_rss_kb.
import { open } from 'node:fs/promises';
import { McapIndexedReader } from '@mcap/core';
import { loadDecompressHandlers } from '@mcap/support';

const [op, path] = process.argv.slice(2);
if (!['open', 'iterate', 'iterate-crc'].includes(op) || !path) {
  console.error('usage: node bench/peers/mcap_core.mjs open|iterate|iterate-crc FILE');
  process.exit(2);
}
const decompressHandlers = await loadDecompressHandlers();  // before the clock: node's start-up, not the reading
const handle = await open(path, 'r');
const size = BigInt((await handle.stat()).size);
let reads = 0;
let bytesRead = 0;
// Reads what the reader asks for, each read one call on the file handle.
const readable = {
  size: async () => size,
  read: async (offset, length) => {
    const out = new Uint8Array(Number(length));
    const { bytesRead: got } = await handle.read(out, 0, out.length, Number(offset));
    if (got !== out.length) throw new Error(`short read at ${offset}: ${got} of ${out.length} bytes`);
    ++reads;
    bytesRead += got;
    return out;
  },
};

let messages = 0;
let bytes = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers });
if (op === 'open') {
  messages = Number(reader.statistics?.messageCount ?? 0n);
} else {
  for await (const message of reader.readMessages({ validateCrcs: op === 'iterate-crc' })) {
    ++messages;
    bytes += message.data.byteLength;
  }
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await handle.close();
console.log(JSON.stringify({ seconds, cpu_seconds: (cpu.user + cpu.system) / 1e6, messages, bytes, reads, bytes_read: bytesRead,
  peak_rss_kb: process.resourceUsage().maxRSS }));
