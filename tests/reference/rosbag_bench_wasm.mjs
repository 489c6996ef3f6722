// Times the wasm module (node flavour, build/wasm/node/logscope-node.cjs) on a bag, for
// bench/bench_rosbag.cpp (--peers) and docs/benchmarks.md: open + summary(), then every message in
// time order through query("iterate_all"). The file is read with fs.readSync on demand, as the
// browser reads a File with FileReaderSync; read calls are counted.
//   node tests/reference/rosbag_bench_wasm.mjs BAG
import { createRequire } from 'node:module';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const Module = await require(join(root, 'build', 'wasm', 'node', 'logscope-node.cjs'))();
const path = process.argv[2];
const fd = openSync(path, 'r');
const size = fstatSync(fd).size;
let calls = 0;
const t0 = performance.now();
// Reads straight into the wasm heap, as the node tests do (no per-read allocation or copy).
const inspector = new Module.Inspector(size, (offset, length, pointer) => {
  ++calls;
  return readSync(fd, Module.HEAPU8, pointer, length, offset);
});
const summary = JSON.parse(inspector.summary());
const openS = (performance.now() - t0) / 1000;
const openCalls = calls;
calls = 0;
const t1 = performance.now();
const result = JSON.parse(inspector.query('iterate_all', '{}', null));
const iterateS = (performance.now() - t1) / 1000;
const mb = size / 1e6;
console.log(`  wasm (node): open+summary ${openS.toFixed(4)} s (${openCalls} reads, ${summary.details.messages} msgs); ` +
            `iterate ${iterateS.toFixed(2)} s (${(mb / iterateS).toFixed(0)} MB/s, ${(result.messages / iterateS / 1e6).toFixed(2)} M msg/s, ` +
            `${result.messages} msgs, ${calls} reads)`);
inspector.delete();
closeSync(fd);
