// Times inspector.checksum() of the wasm module (node flavour) on a file: for a BDDF that is the
// streaming SHA1 of the whole file, read with fs.readSync on demand as a browser reads a File.
//   node tests/reference/wasm_checksum_bench.mjs FILE
import { createRequire } from 'node:module';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const Module = await require(join(root, 'build', 'wasm', 'node', 'logscope-node.cjs'))();
const fd = openSync(process.argv[2], 'r');
const size = fstatSync(fd).size;
let calls = 0;
const inspector = new Module.Inspector(size, (offset, length, pointer) => {
  ++calls;
  return readSync(fd, Module.HEAPU8, pointer, length, offset);  // straight into the wasm heap
});
const t0 = performance.now();
const result = JSON.parse(inspector.checksum(null));
const s = (performance.now() - t0) / 1000;
console.log(`wasm (node) checksum: ${s.toFixed(2)} s, ${(size / 1e9 / s).toFixed(2)} GB/s, status ${result.status}, ${calls} reads`);
inspector.delete();
closeSync(fd);
