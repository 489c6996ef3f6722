// Renders docs/benchmarks.md from one run of bench/run.mjs. Only what the run measured is printed;
// a measurement that failed says why in its place.

const s = (r) => (r && !r.error ? `${r.seconds < 0.1 ? r.seconds.toFixed(4) : r.seconds.toFixed(3)} s` : `— (${r?.error ?? 'not run'})`);
const ok = (r) => r && !r.error;
const rate = (r, bytes) => (ok(r) ? `${(bytes / 1e6 / r.seconds).toFixed(0)} MB/s` : '');
const gbps = (r, bytes) => (ok(r) ? `${(bytes / 1e9 / r.seconds).toFixed(2)} GB/s` : '');
const mps = (r) => (ok(r) && r.messages ? `${(r.messages / 1e6 / r.seconds).toFixed(2)} M/s` : '');
const cpu = (r) => (ok(r) && r.cpu_seconds != null ? `${r.cpu_seconds.toFixed(2)} s` : '');
const rss = (r) => (ok(r) && r.peak_rss_kb ? `${Math.round(r.peak_rss_kb / 1024)} MB` : '');
const ratio = (peer, ours) => (ok(peer) && ok(ours) ? `${(peer.seconds / ours.seconds).toFixed(1)}×` : '');
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

const BAGS = {
  lz4: 'lz4 chunks, an outdoor robot (IMU, TF, odometry, lidar, GPS, cmd_vel, rosout, a 15 Hz JPEG camera)',
  none: 'uncompressed chunks, the same robot',
  bz2: 'bz2 chunks, the same robot',
  tiny: '5,000,000 four-byte std_msgs/Int32 messages on four topics, uncompressed',
};

function bagSection(key, r) {
  const it = r.iterate;
  const op = r.open;
  const rows = [
    ['**logscope** native, every core', op.logscope, it.logscope, it.logscope],
    ...(it.logscope_1 ? [['logscope native, 1 thread', null, it.logscope_1, it.logscope]] : []),
    ...(it.logscope_touch ? [['logscope native, reading every byte of every message', null, it.logscope_touch, it.logscope]] : []),
    ...(it.logscope_verify ? [['logscope native, lz4 checksums verified', null, it.logscope_verify, it.logscope]] : []),
    ...(it.logscope_mapped ? [['logscope native, memory-mapped file', null, it.logscope_mapped, it.logscope]] : []),
    ['logscope wasm under node, 1 thread', op.wasm, it.wasm, it.logscope],
    ['C++ rosbag_storage (View, bytes copied out)', op.rosbag_storage, it.rosbag_storage, it.logscope],
    ['python3-rosbag (`Bag()`, `read_messages(raw=True)`)', op.python, it.python, it.logscope],
    ['rosbag.js (`readMessages`, noParse)', op.rosbagjs, it.rosbagjs, it.logscope],
    ['@foxglove/rosbag (`messageIterator`, parse: false)', op.foxglove, it.foxglove, it.logscope],
  ];
  const messages = it.logscope?.messages ?? it.python?.messages;
  let out = `### ${key}: ${r.file}, ${mb(r.size)}${messages ? `, ${messages.toLocaleString('en-US')} messages` : ''}\n\n`;
  out += `${BAGS[key]}.\n\n`;
  out += '| reader | open to summary | iterate every message | | | CPU (iterate) | peak RSS (iterate) | iterate: time ÷ logscope native |\n';
  out += '|---|---|---|---|---|---|---|---|\n';
  for (const [name, open, iterate, base] of rows) {
    out += `| ${name} | ${open ? s(open) : ''} | ${s(iterate)} | ${rate(iterate, r.size)} | ${mps(iterate)} | ${cpu(iterate)} | ${rss(iterate)} | ${iterate === base ? '1×' : ratio(iterate, base)} |\n`;
  }
  out += `\nAlso measured: logscope's \`info_report()\` (the rows of \`rosbag info\`, every chunk header read) ${s(op.logscope_info)}; `;
  out += `\`rosbag info\` (python3-rosbag, a new process as a user runs it) ${s(op.python_info)}.\n\n`;
  return out;
}

function doneWhen(results) {
  const lines = [];
  const none = results.bags.none;
  if (none) {
    const x = ok(none.iterate.rosbag_storage) && ok(none.iterate.logscope) ? none.iterate.rosbag_storage.seconds / none.iterate.logscope.seconds : null;
    const a = none.iterate.logscope, b = none.iterate.rosbag_storage;
    const c = ok(a) && ok(b) && a.cpu_seconds && b.cpu_seconds ? b.cpu_seconds / a.cpu_seconds : null;
    lines.push(`- Uncompressed iteration (${none.file}): logscope ${s(a)}, C++ rosbag_storage ${s(b)}: ` +
      (x ? `**${x.toFixed(2)}×** (goal: at least 1.5×)${x >= 1.5 ? '' : ' — not reached in this run'}` : 'not compared') +
      (c ? `; CPU time ${cpu(a)} against ${cpu(b)} (rosbag_storage ÷ logscope: ${c.toFixed(2)})` : ''));
  }
  const carla = results.carla;
  if (carla && ok(carla.scan)) {
    const g = carla.size / 1e9 / carla.scan.seconds;
    const gc = carla.scan.cpu_seconds ? carla.size / 1e9 / carla.scan.cpu_seconds : null;
    lines.push(`- CARLA full scan (${carla.file}): ${s(carla.scan)}, **${g.toFixed(2)} GB/s** (goal: at least 1.5 GB/s)${g >= 1.5 ? '' : ' — not reached in this run'}` +
      (gc ? `; ${cpu(carla.scan)} of CPU, ${gc.toFixed(2)} GB per CPU second` : ''));
  }
  return lines.join('\n') + '\n';
}

const MCAP = {
  zstd: 'zstd chunks (1 MiB of records each), written by `logscope make-demo-mcap --compression zstd`: a ROS 2 robot, /imu and /odom as JSON, a compressed camera image and /rosout as CDR, an attachment, metadata',
  lz4: 'lz4 (frame) chunks, the same robot, `make-demo-mcap --compression lz4`',
};
const KB64 = 64 * 1024;

// Issue 26's open budget: at most 4 reads, of no more than the summary section + 64 KiB.
const withinBudget = (reads, bytes, summaryBytes) => reads <= 4 && summaryBytes != null && bytes <= summaryBytes + KB64;
function readsText(reads, bytes, summaryBytes) {
  if (reads == null || bytes == null) return '';
  return `${reads} reads, ${bytes.toLocaleString('en-US')} bytes${summaryBytes == null ? '' : withinBudget(reads, bytes, summaryBytes) ? ' (within)' : ' (over)'}`;
}
// The reads that count for the budget: the codec's own for native (its cache fetches whole 16 KiB
// blocks, shown beside), the file's under the module's cache for wasm (as the page reads).
function openBudget(r, summaryBytes) {
  if (!ok(r)) return '';
  if (r.codec_reads != null)
    return `${readsText(r.codec_reads, r.codec_bytes, summaryBytes)}; the file under the CLI's cache: ${r.reads} reads, ${r.bytes_read.toLocaleString('en-US')} bytes`;
  return readsText(r.reads, r.bytes_read, summaryBytes);
}

function mcapSection(key, r) {
  const op = r.open;
  const it = r.iterate;
  const summaryBytes = op.logscope?.summary_section_bytes;
  const peer = it.mcap_core;
  const pagedWasm = it.wasm?.via === 'messages';
  const rows = [
    ['**logscope** native, 1 thread (`iterate_all`)', op.logscope, it.logscope],
    ['logscope native, reading every byte of every message', null, it.logscope_touch],
    [`logscope wasm under node, 1 thread (${pagedWasm ? '`messages` pages of 10,000: the module had no `iterate_all`' : '`iterate_all`'})`, op.wasm, it.wasm],
    ['@mcap/core `McapIndexedReader` (`readMessages`, validateCrcs: false)', op.mcap_core, peer],
    ['@mcap/core, `readMessages()` as it defaults (every chunk CRC checked)', null, it.mcap_core_crc],
  ];
  const messages = it.logscope?.messages ?? peer?.messages;
  let out = `### ${key}: ${r.file}, ${mb(r.size)}${messages ? `, ${messages.toLocaleString('en-US')} messages` : ''}\n\n`;
  out += `${MCAP[key]}. Summary section: ${summaryBytes != null ? `${summaryBytes.toLocaleString('en-US')} bytes` : 'not measured'}.\n\n`;
  out += '| reader | open to summary | reads to summary | iterate every message | | | CPU (iterate) | peak RSS (iterate) | @mcap/core time ÷ this reader |\n';
  out += '|---|---|---|---|---|---|---|---|---|\n';
  for (const [name, open, iterate] of rows) {
    out += `| ${name} | ${open ? s(open) : ''} | ${open ? openBudget(open, summaryBytes) : ''} | ${s(iterate)} | ${rate(iterate, r.size)} | ${mps(iterate)} | ${cpu(iterate)} | ${rss(iterate)} | ${iterate === peer ? '1×' : ratio(peer, iterate)} |\n`;
  }
  out += '\n';
  return out;
}

// Issue 26's done-when on speed, as far as npm run bench measures it (the browser's full-check goal
// is bench:browser's).
function mcapGoals(mcap) {
  const lines = [];
  for (const [key, r] of Object.entries(mcap)) {
    const summaryBytes = r.open.logscope?.summary_section_bytes;
    for (const [who, open] of [['native', r.open.logscope], ['wasm', r.open.wasm]]) {
      if (!ok(open)) continue;
      const native = who === 'native';
      const [reads, bytes] = native ? [open.codec_reads, open.codec_bytes] : [open.reads, open.bytes_read];
      const within = withinBudget(reads, bytes, summaryBytes);
      lines.push(`- ${r.file}, open to summary (${native ? 'native, the codec\'s reads' : 'wasm, the file\'s reads under the module\'s cache'}): ` +
        `${reads} reads, ${bytes?.toLocaleString('en-US')} bytes against at most 4 reads and ${summaryBytes != null ? (summaryBytes + KB64).toLocaleString('en-US') : '?'} bytes ` +
        `(the summary section + 64 KiB)${within ? '' : ' — not met in this run'}` +
        (native ? `; the file under the CLI's cache: ${open.reads} reads, ${open.bytes_read?.toLocaleString('en-US')} bytes` : ''));
    }
    const peer = r.iterate.mcap_core;
    for (const [who, ours, goal] of [['native', r.iterate.logscope, 3], ['wasm', r.iterate.wasm, 2]]) {
      const x = ok(peer) && ok(ours) ? peer.seconds / ours.seconds : null;
      const paged = who === 'wasm' && ours?.via === 'messages' ? ' (through `messages` pages, not `iterate_all`: rebuild the wasm module)' : '';
      lines.push(`- ${r.file}, iterate every message (${who}): logscope ${s(ours)}, @mcap/core ${s(peer)}: ` +
        (x ? `**${x.toFixed(2)}×** (goal: at least ${goal}×)${x >= goal ? '' : ' — not reached in this run'}` : 'not compared') + paged);
    }
  }
  return lines.join('\n') + '\n';
}

export function renderReport({ machine, versions, results }) {
  let out = '# Benchmarks\n\n';
  out += 'Written by `npm run bench` (bench/run.mjs); every figure on this page was measured in that one run, on the same files,\n';
  out += 'logscope and its peers side by side. The browser\'s figures (the page in headless Chromium, `npm run bench:browser`) are in\n';
  out += '[benchmarks-browser.md](benchmarks-browser.md).\n\n';
  out += `**This run:** ${machine.started.slice(0, 16).replace('T', ' ')} UTC, ${machine.minutes.toFixed(0)} minutes; ${machine.cpus} cores (${machine.cpu}), `;
  out += `${machine.memory_gib} GiB, Linux ${machine.kernel}; files in the page cache. The machine is shared with other sessions `;
  out += `(load average ${machine.load_before[0].toFixed(1)} at the start, ${machine.load_after[0].toFixed(1)} at the end), so only ratios within the run `;
  out += `mean anything. Each figure is the best of ${machine.reps} runs, each a fresh process (one run for anything over 20 s); `;
  out += 'times start once the program is loaded (the wasm module compiled, python and node started) and end with the last message. ';
  out += '"CPU" is the CPU time of the same span, every thread, user and system: on these shared VMs it grows under load too, but less than the wall time.\n\n';
  out += '## Goals (issue 10, native)\n\n' + doneWhen(results) + '\n';
  if (results.mcap) out += '## Goals (issue 26, MCAP)\n\n' + mcapGoals(results.mcap) + '\n';

  out += '## Inputs\n\n';
  out += `Written once by \`npm run bench:inputs\` into \`\${LOGSCOPE_CACHE:-~/.cache/logscope}/bench-inputs/\`: the bags by Debian's python3-rosbag `;
  out += '(bench/write_bag.py, with the message classes of Debian\'s *-msgs packages), so no reader is timed on its own writer\'s output; the BDDF and CARLA logs by logscope\'s writers (no other writer exists here), ';
  out += 'the MCAP files by `logscope make-demo-mcap --size-mb 1024` (zstd and lz4; @mcap/core reads them as the agreement tests check).\n\n';

  out += '## ROS bags\n\n';
  out += '"open to summary" is what a summary needs: logscope\'s `summary()` (index only), the peers\' open (header, index, connections; python3-rosbag also reads every chunk\'s index). ';
  out += '"iterate" is every message in time order with its bytes at hand, nothing decoded: logscope hands a view of each message (no copy); ';
  out += 'rosbag_storage copies each into a buffer (`MessageInstance::write`, its way to get raw bytes); the JS peers decompress with @foxglove/wasm-lz4 / wasm-bz2. ';
  out += 'The row "reading every byte" adds a checksum over every message\'s bytes to logscope\'s loop, for readers that would look at the data.\n\n';
  for (const [key, r] of Object.entries(results.bags)) out += bagSection(key, r);

  const b = results.bddf;
  if (b) {
    out += `## BDDF: ${b.file}, ${mb(b.size)}\n\n`;
    out += '| operation | time | throughput | CPU | peak RSS |\n|---|---|---|---|---|\n';
    const row = (name, r, whole = true) => `| ${name} | ${s(r)} | ${whole ? rate(r, b.size) : ''} | ${cpu(r)} | ${rss(r)} |\n`;
    out += row('logscope native: open + summary (index first)', b.open, false);
    out += row('logscope native: checksum (SHA1 of the file, "Verify checksum")', b.checksum);
    out += row('logscope native: check (checksum + every block)', b.check);
    out += row('Crypto++ SHA1 alone, native (8 MB reads, nothing else)', b.sha1);
    out += row('logscope wasm under node: open + summary', b.wasm_open, false);
    out += row('logscope wasm under node: checksum (Crypto++ SHA1 in wasm)', b.wasm_checksum);
    out += row('logscope wasm under node: check', b.wasm_check);
    out += row('peer: coreutils `sha1sum`', b.sha1sum);
    out += row('peer: node:crypto SHA1 (OpenSSL) over 8 MB reads', b.node_sha1);
    out += '\n';
  }
  const c = results.carla;
  if (c) {
    out += `## CARLA: ${c.file}, ${mb(c.size)}${ok(c.scan) ? `, ${c.scan.frames.toLocaleString('en-US')} frames` : ''}\n\n`;
    out += 'No peer reads a recorder log without the simulator (CARLA answers its queries inside the server), so logscope is timed alone. ';
    out += 'Every query starts with the scan; the times include it.\n\n';
    out += '| operation | time | throughput | CPU | peak RSS |\n|---|---|---|---|---|\n';
    const row = (name, r) => `| ${name} | ${s(r)} | ${gbps(r, c.size)} | ${cpu(r)} | ${rss(r)} |\n`;
    out += row('scan: frame index, statistics, layout variant, framing checks (native)', c.scan);
    out += row('scan, memory-mapped file (native)', c.scan_mapped);
    out += row('show_recorder_file_info (native)', c['file-info']);
    out += row('show_recorder_collisions a a (native)', c.collisions);
    out += row('show_recorder_actors_blocked 30 s 10 cm (native)', c.blocked);
    out += row('actor table (native)', c.actors);
    out += row('summary (the scan) in wasm under node, 1 thread', c.wasm_open);
    out += '\n';
  }

  if (results.mcap) {
    out += '## MCAP\n\n';
    out += '"open to summary": logscope\'s `summary()` (the magic with the Header\'s prefix, the Header, the Footer, then DataEnd and the summary in one read; no chunk), ';
    out += '@mcap/core\'s `McapIndexedReader.Initialize` (footer, summary). "reads to summary" count read calls and the bytes they return: ';
    out += 'natively the codec\'s own requests, and beside them the file\'s reads under the CLI\'s block cache (whole 16 KiB blocks: the head\'s, and the tail\'s from a block start); ';
    out += 'in wasm the file\'s reads under the module\'s cache (16 KiB blocks, as in the page; detection\'s read of the head included); @mcap/core\'s the reads its readable is asked for. ';
    out += '"iterate" is every message with its bytes at hand, nothing decoded: logscope\'s `iterate_all` query (each chunk read and decompressed once, ';
    out += 'each message a view of the decompressed records), natively on one thread and in the wasm module; @mcap/core reads through a `FileHandle` readable ';
    out += 'with @mcap/support\'s `loadDecompressHandlers` (zstd and lz4 in wasm), in log-time order by the message indexes. ';
    out += 'The ratio row is against `validateCrcs: false`, the same work as logscope\'s (which checks no CRC while iterating); @mcap/core\'s default checks every chunk\'s CRC.\n\n';
    for (const [key, r] of Object.entries(results.mcap)) out += mcapSection(key, r);
  }

  out += '## Reading: pread, not mmap\n\n';
  out += 'logscope has a memory-mapped ByteSource (codec/core/mapped_source.h: zero-copy, and safe when the file shrinks under it), but the CLI ';
  out += 'reads with pread in 8 MB windows: on these machines a page fault on a mapped file costs so much that touching the pages of a mapped file is ';
  out += 'slower than copying them. The rows "memory-mapped" above measure it in this run';
  const none = results.bags.none;
  if (none && ok(none.iterate.logscope_mapped) && ok(none.iterate.logscope))
    out += ` (uncompressed bag: ${s(none.iterate.logscope_mapped)} mapped against ${s(none.iterate.logscope)} with pread`;
  if (c && ok(c.scan_mapped) && ok(c.scan)) out += `${none ? '; ' : ' ('}CARLA scan: ${s(c.scan_mapped)} against ${s(c.scan)}`;
  out += none || c ? ').' : '.';
  out += ' Pages of a mapped file also count in the peak RSS (they are the page cache, shared, not memory of the process).\n\n';

  out += '## Versions\n\n';
  for (const [name, version] of Object.entries(versions)) out += `- ${name} ${version}\n`;
  out += '\nRaw results of this run: `build/bench/results.json`. Reproduce: `npm run bench` (about ' + Math.ceil(machine.minutes) + ' minutes here).\n';
  return out;
}
