// logscope's wasm module (node flavour, build/wasm/node/logscope-node.cjs) on one file, for
// bench/run.mjs: one thread, the file read with fs.readSync straight into the wasm heap on demand,
// as the page's worker reads a File.
//   node bench/wasm_node.mjs open|iterate|checksum|check FILE
// open: new Inspector + summary() (for a CARLA log that is the whole scan); iterate: every message
// (query iterate_all: a bag's in time order, an MCAP's in file order with each payload viewed);
// checksum, check: as the page's buttons.
// An MCAP file and a module built before MCAP had iterate_all: its messages a page of 10,000 at
// a time through query messages, each page from the last log_time seen (the file must be in time
// order; the output says `via: "messages"`).
// Prints one JSON line: seconds, reads and bytes_read (the file's, under the module's cache),
// messages and bytes (iterate), status (checksum), peak_rss_kb (node's).
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
let bytesRead = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const inspector = new Module.Inspector(size, (offset, length, pointer) => {
  ++reads;
  const got = readSync(fd, Module.HEAPU8, pointer, length, offset);
  bytesRead += got;
  return got;
});
const out = {};
const summary = JSON.parse(inspector.summary());
if (op === 'open') {
  out.format = summary.format;
} else if (op === 'iterate') {
  const answer = JSON.parse(inspector.query('iterate_all', '{}', null));
  if (answer.error?.startsWith('unknown query') && summary.format === 'mcap') {
    Object.assign(out, mcapMessagePages(summary.file.counts.messages));
  } else if (answer.error) {
    throw new Error(answer.error);
  } else {
    out.messages = answer.messages;
    if (answer.message_bytes !== undefined) out.bytes = answer.message_bytes;
  }
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
console.log(JSON.stringify({ seconds, cpu_seconds: (cpu.user + cpu.system) / 1e6, reads, bytes_read: bytesRead, ...out,
  peak_rss_kb: process.resourceUsage().maxRSS }));

// Every message of an MCAP through query messages, 10,000 a page, each page from the last log_time
// seen (t0_ns) past the messages already taken at that time (first): the chunks before are skipped
// by their index times, so the pages cost a pass, not a pass each. Needs file order = time order.
function mcapMessagePages(expected) {
  let messages = 0;
  let bytes = 0;
  let last = -1n;
  let atLast = 0;
  for (let args = { count: 10000 }; ;) {
    const page = JSON.parse(inspector.query('messages', JSON.stringify(args), null));
    if (page.error) throw new Error(page.error);
    for (const m of page.messages) {
      const t = BigInt(m.log_time);
      if (t < last) throw new Error(`message ${messages} is earlier than the one before it: paging by time cannot iterate this file`);
      if (t === last) ++atLast;
      else [last, atLast] = [t, 1];
      ++messages;
      bytes += m.size;
    }
    if (!page.more) break;
    args = { count: 10000, t0_ns: String(last), first: atLast };
  }
  if (messages !== expected) throw new Error(`paged through ${messages} messages, the summary counts ${expected}`);
  return { messages, bytes, via: 'messages' };
}
