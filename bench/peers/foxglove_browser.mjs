// @foxglove/rosbag in a browser worker, for bench/browser.mjs: the browser peer, run in the same
// page as logscope on the same File. bench/browser.mjs bundles this file with esbuild (the peers
// come from bench/deps.sh, outside the repo) and serves it with the two decompressors' wasm.
// Message in: {file}. Out: {openSeconds, seconds, messages, bytes} or {error}.
// It opens the bag (header, index, connections) and then iterates every message in time order
// with parse: false (raw bytes), decompressing lz4 and bz2 chunks as Foxglove does.
import { Bag } from '@foxglove/rosbag';
import { BlobReader } from '@foxglove/rosbag/web';
import lz4 from '@foxglove/wasm-lz4';
import Bzip2 from '@foxglove/wasm-bz2';
import { Buffer } from 'buffer';

// @foxglove/wasm-lz4 returns a node Buffer; Foxglove's web app provides the same polyfill.
self.Buffer = Buffer;

self.onmessage = async ({ data: { file } }) => {
  try {
    await lz4.isLoaded;
    const bzip2 = await Bzip2.init();
    const decompress = {
      lz4: (buffer, size) => lz4(buffer, size),
      bz2: (buffer, size) => bzip2.decompress(buffer, size, { small: false }),
    };
    const t0 = performance.now();
    const bag = new Bag(new BlobReader(file), { decompress, parse: false });
    await bag.open();
    const opened = performance.now();
    let messages = 0;
    let bytes = 0;
    for await (const event of bag.messageIterator()) {
      ++messages;
      bytes += event.data.length;
    }
    const t1 = performance.now();
    self.postMessage({ openSeconds: (opened - t0) / 1000, seconds: (t1 - t0) / 1000, messages, bytes });
  } catch (error) {
    self.postMessage({ error: String(error?.stack || error) });
  }
};
