// logscope's wasm module (node flavour, build/wasm/node/logscope-node.cjs) on one file, for
// bench/run.mjs: one thread, the file read with fs.readSync straight into the wasm heap on demand,
// as the page's worker reads a File.
//   node bench/wasm_node.mjs open|iterate|checksum|check FILE
// open: new Inspector + summary() (for a CARLA log that is the whole scan); iterate: every bag
// message in time order (query iterate_all); checksum, check: as the page's buttons.
// Prints one JSON line: seconds, reads, messages (iterate), status (checksum), peak_rss_kb (node's).
import { createRequire } from 'node:module';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Module = await require(join(root, 'build', 'wasm', 'node', 'logscope-node.cjs'))();
const [op, path] = process.argv.slice(2);
const fd = openSync(path, 'r');
const size = fstatSync(fd).size;
let reads = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const inspector = new Module.Inspector(size, (offset, length, pointer) => {
  ++reads;
  return readSync(fd, Module.HEAPU8, pointer, length, offset);
});
const out = {};
const summary = JSON.parse(inspector.summary());
if (op === 'open') {
  out.format = summary.format;
} else if (op === 'iterate') {
  out.messages = JSON.parse(inspector.query('iterate_all', '{}', null)).messages;
} else if (op === 'checksum') {
  out.status = JSON.parse(inspector.checksum(null)).status;
} else if (op === 'check') {
  out.problems = JSON.parse(inspector.check(null)).problems?.length;
} else {
  throw new Error(`unknown op ${op}`);
}
const seconds = (performance.now() - t0) / 1000;
inspector.delete();
closeSync(fd);
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ seconds, cpu_seconds: (cpu.user + cpu.system) / 1e6, reads, ...out, peak_rss_kb: process.resourceUsage().maxRSS }));
