// The JavaScript peers on a bag under node, for bench/run.mjs: rosbag.js (`rosbag`) and
// @foxglove/rosbag, both decompressing with @foxglove/wasm-lz4 and @foxglove/wasm-bz2, installed by
// bench/deps.sh into a cache folder outside the repo.
//   node js_rosbag.mjs PEERS_DIR rosbagjs|foxglove open|iterate FILE
// open: open the bag (header, index, connections: what a summary needs)
// iterate: every message in time order, raw bytes (no parsing), as logscope's iteration delivers
// Prints one JSON line: seconds, messages, bytes, peak_rss_kb.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [peersDir, peer, op, file] = process.argv.slice(2);
const require = createRequire(join(peersDir, 'node_modules', 'x.js'));

const lz4 = require('@foxglove/wasm-lz4');
await lz4.isLoaded;
const bz2Module = require('@foxglove/wasm-bz2');
const Bzip2 = bz2Module.default ?? bz2Module;
const bzip2 = await Bzip2.init();
// rosbag.js reads the result with Buffer methods: hand back a Buffer view (no copy).
const asBuffer = (bytes) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
const decompress = {
  lz4: (buffer, size) => asBuffer(lz4(buffer, size)),
  bz2: (buffer, size) => asBuffer(bzip2.decompress(buffer, size, { small: false })),
};

let messages = 0;
let bytes = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
if (peer === 'rosbagjs') {
  const { open } = require('rosbag');
  const bag = await open(file);
  if (op === 'iterate') {
    await bag.readMessages({ noParse: true, decompress }, (result) => {
      ++messages;
      bytes += result.data.length;
    });
  } else {
    for (const info of bag.chunkInfos) messages += info.connections.reduce((n, c) => n + c.count, 0);
  }
} else if (peer === 'foxglove') {
  const { Bag } = require('@foxglove/rosbag');
  const { FileReader } = require('@foxglove/rosbag/node');
  const bag = new Bag(new FileReader(file), { decompress, parse: false });
  await bag.open();
  if (op === 'iterate') {
    for await (const event of bag.messageIterator()) {
      ++messages;
      bytes += event.data.length;
    }
  } else {
    for (const info of bag.chunkInfos) messages += info.connections.reduce((n, c) => n + c.count, 0);
  }
} else {
  throw new Error(`unknown peer ${peer}`);
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ seconds, cpu_seconds: (cpu.user + cpu.system) / 1e6, messages, bytes, peak_rss_kb: process.resourceUsage().maxRSS }));
