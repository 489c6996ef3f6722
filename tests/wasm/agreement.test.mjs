// The wasm module and the native CLI run the same codec: they must give the same answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
        const cliText = compactJson(cli.stdout);
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
