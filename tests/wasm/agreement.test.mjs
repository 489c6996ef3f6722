// The wasm module and the native CLI run the same codec: they must give the same answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { haveSamples, openWithWasm, runCli, sampleFiles } from './support.mjs';

// Files whose diagnosis must be helpful, made here (nothing copied).
function makeOddFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-odd-'));
  const files = {
    'empty.bag': Buffer.alloc(0),
    'download.bag': Buffer.from('<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>\n'),
    'lfs.bddf': Buffer.from('version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n'),
    'log.bag.gz': Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3, 1, 2, 3]),
    'cut.bag': Buffer.from('#ROSBAG V2'),
    'random.bin': Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42, 0x99, 0x00, 0x01]),
  };
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return { dir, paths: Object.keys(files).map((name) => join(dir, name)) };
}

// Drops the whitespace outside strings, turning pretty JSON into the codec's compact form.
function compactJson(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

async function compareDetection(path) {
  const cli = runCli(['info', '--json', path]);
  const cliJson = JSON.parse(cli.stdout);
  const wasm = await openWithWasm(path);
  try {
    assert.deepEqual(JSON.parse(wasm.inspector.detection()), cliJson.detection, `detection of ${basename(path)}`);
    return { cliJson, wasm };
  } finally {
    wasm.close();
  }
}

test('unknown and damaged-header files get the same diagnosis from wasm and CLI', async () => {
  const odd = makeOddFiles();
  try {
    const kinds = {};
    for (const path of odd.paths) {
      const { cliJson } = await compareDetection(path);
      kinds[basename(path)] = cliJson.detection.kind;
      assert.ok(cliJson.detection.diagnosis.length > 20, `a sentence for ${basename(path)}`);
    }
    assert.deepEqual(kinds, {
      'empty.bag': 'empty', 'download.bag': 'html', 'lfs.bddf': 'lfs-pointer', 'log.bag.gz': 'gzip',
      'cut.bag': 'truncated-header', 'random.bin': 'unknown',
    });
  } finally {
    rmSync(odd.dir, { recursive: true, force: true });
  }
});

// `logscope info --json` of a copy of `path` alone in a fresh folder, named database.db3.
function infoAlone(path) {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-alone-'));
  try {
    copyFileSync(path, join(dir, 'database.db3'));
    return runCli(['info', '--json', join(dir, 'database.db3')]).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every sample: same detection and the same info JSON from wasm and CLI', async (t) => {
  if (!haveSamples()) return t.skip('SKIPPED: ../shared/samples is absent');
  const files = sampleFiles();
  assert.ok(files.length >= 15, 'the samples folder holds the expected files');
  for (const path of files) {
    const cli = runCli(['info', '--json', path]);
    const cliJson = JSON.parse(cli.stdout);
    const wasm = await openWithWasm(path);
    try {
      assert.deepEqual(JSON.parse(wasm.inspector.detection()), cliJson.detection, `detection of ${basename(path)}`);
      if (wasm.inspector.known()) {
        // Compare as text: the summary holds 64-bit integers that JSON.parse would round.
        // `summary` is the CLI object's last key, so its compact text ends the CLI's output.
        // The wasm module is given one file's bytes: a rosbag2 database alone, without its yaml and
        // -wal, and without a name (it calls it database.db3). The CLI reads the same: a copy alone.
        const cliText = compactJson(cliJson.detection.family === 'rosbag2' ? infoAlone(path) : cli.stdout);
        const wasmText = wasm.inspector.infoReport(null);
        assert.ok(cliText.endsWith(`"summary":${wasmText}}`), `summary of ${basename(path)}:\n cli  ${cliText.slice(0, 300)}\n wasm ${wasmText.slice(0, 300)}`);
      }
    } finally {
      wasm.close();
    }
  }
});

// As the page's worker does for the later facts (web/worker.js infoReport): read every range of
// infoReportReads itself, preload it, then infoReport, which must ask the file for nothing more.
test('infoReport and infoText with their reads preloaded: the CLI\'s answers, and the file is read no further', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-preload-'));
  try {
    for (const compression of ['none', 'lz4', 'bz2']) {
      const path = join(dir, `${compression}.bag`);
      runCli(['make-demo-rosbag', path, '--size-mb', '6', '--compression', compression]);
      const cliText = compactJson(runCli(['info', '--json', path]).stdout);
      const file = readFileSync(path);
      const wasm = await openWithWasm(path);
      try {
        wasm.inspector.summary();
        const ranges = JSON.parse(wasm.inspector.infoReportReads());
        assert.ok(ranges.length >= 6, `${compression}: a range per chunk (${ranges.length})`);
        for (const [offset, length] of ranges) assert.equal(wasm.inspector.preload(offset, file.subarray(offset, offset + length)), true);
        const before = JSON.parse(wasm.inspector.readStats());
        assert.equal(before.preloaded_bytes, ranges.reduce((sum, [, length]) => sum + length, 0));
        const wasmText = wasm.inspector.infoReport(null);
        const after = JSON.parse(wasm.inspector.readStats());
        assert.equal(after.bytes_read, before.bytes_read, `${compression}: nothing read after the preload`);
        assert.equal(after.preloaded_bytes, 0, 'infoReport drops the preloads');
        assert.ok(cliText.endsWith(`"summary":${wasmText}}`), `${compression}: the CLI's report`);
        assert.equal(wasm.inspector.infoReportReads(), '[]');
      } finally {
        wasm.close();
      }
      // infoText (rosbag info's layout) needs the same headers.
      const again = await openWithWasm(path);
      try {
        for (const [offset, length] of JSON.parse(again.inspector.infoReportReads())) again.inspector.preload(offset, file.subarray(offset, offset + length));
        const before = JSON.parse(again.inspector.readStats());
        const text = again.inspector.infoText(JSON.stringify({ path }));
        const after = JSON.parse(again.inspector.readStats());
        assert.equal(after.bytes_read, before.bytes_read, `${compression}: infoText read nothing after the preload`);
        assert.equal(after.preloaded_bytes, 0, 'infoText drops the preloads');
        assert.equal(text, runCli(['info', path]).stdout);
      } finally {
        again.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The CLI's format commands with --json and the page's queries print one contract (docs/report.md,
// "Query results"): the same typed answers, ns as exact decimal strings both ways.
test('query answers: the wasm module equals the CLI\'s --json, typed, with ns arguments as decimal strings', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-queries-'));
  const ask = (wasm, name, args) => JSON.parse(wasm.inspector.query(name, JSON.stringify(args), null));
  const typed = (answer, what) => {
    assert.equal(typeof answer.units, 'object', `${what}: units`);
    for (const [path, unit] of Object.entries(answer.units)) {
      if (unit !== 'time_ns' && unit !== 'duration_ns') continue;
      const [list, key] = path.split('.');
      const values = key ? (answer[list] || []).map((item) => item[key]) : [answer[list]];
      for (const v of values) assert.match(v, /^-?\d+$/, `${what}: ${path} is a decimal string`);
    }
  };
  try {
    const bddf = join(dir, 'demo.bddf'), bag = join(dir, 'demo.bag'), log = join(dir, 'demo.log');
    for (const [command, path] of [['make-demo-bddf', bddf], ['make-demo-rosbag', bag], ['make-demo-carla', log]]) {
      assert.equal(runCli([command, path, '--size-mb', '1']).status, 0, command);
    }

    // BDDF: the blocks of one series in a range given to the ns, beyond 2^53.
    const all = JSON.parse(runCli(['blocks', bddf, '--series', '0', '--json']).stdout);
    typed(all, 'blocks');
    const [from, to] = [all.blocks[3].timestamp_ns, all.blocks[9].timestamp_ns];
    assert.ok(BigInt(from) > 2n ** 53n);
    const cli = JSON.parse(runCli(['blocks', bddf, '--series', '0', '--from', from, '--to', to, '--json']).stdout);
    let wasm = await openWithWasm(bddf);
    try {
      const answer = ask(wasm, 'extract', { series: [0], t0_ns: from, t1_ns: to, max: 100000 });
      assert.deepEqual(answer, cli);
      assert.equal(answer.blocks[0].timestamp_ns, from);
      assert.equal(answer.blocks.at(-1).timestamp_ns, to);
      // One ns later leaves the first block out: the bound was not rounded to a double's 256 ns.
      assert.equal(ask(wasm, 'extract', { series: [0], t0_ns: String(BigInt(from) + 1n), t1_ns: to }).total, cli.total - 1);
    } finally {
      wasm.close();
    }

    // ROS bag: the first messages, each line of `messages --json` an element of the query's list.
    const lines = runCli(['messages', bag, '--limit', '5', '--json']).stdout.trim().split('\n').map((line) => JSON.parse(line));
    wasm = await openWithWasm(bag);
    try {
      const answer = ask(wasm, 'messages', { first: 0, count: 5, preview: 16 });
      typed(answer, 'messages');
      assert.deepEqual(answer.messages, lines);
      const later = ask(wasm, 'messages', { first: 0, count: 1, t0_ns: String(BigInt(lines[1].time_ns) + 1n) });
      assert.ok(BigInt(later.messages[0].time_ns) > BigInt(lines[1].time_ns), 'a decimal-string bound, to the ns');
    } finally {
      wasm.close();
    }

    // CARLA: collisions and actors.
    wasm = await openWithWasm(log);
    try {
      for (const [command, name, args] of [['collisions', 'collisions', { type1: 'a', type2: 'a' }], ['actors', 'actors', {}]]) {
        const answer = ask(wasm, name, args);
        delete answer.text;
        delete answer.units.text;
        typed(answer, name);
        assert.deepEqual(answer, JSON.parse(runCli([command, log, '--json']).stdout), command);
      }
    } finally {
      wasm.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
