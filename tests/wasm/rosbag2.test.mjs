// rosbag2 in wasm: SQLite compiled with SQLITE_OS_OTHER reads a .db3 through the codec's
// ByteSource VFS (the JS read callback, page by page) and agrees with the native CLI on a lone
// database: counts, times, topics and the check's problem codes, including a database cut short
// that the recovery extension salvages into memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, fstatSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule, openWithWasm, runCli, samplesDir } from './support.mjs';

function compare(path) {
  return openWithWasm(path).then(({ inspector, close }) => {
    try {
      const cli = JSON.parse(runCli(['info', path, '--json']).stdout).summary;
      const wasm = JSON.parse(inspector.summary());
      assert.deepEqual(wasm.file.counts, cli.file.counts);
      assert.equal(wasm.file.start_ns, cli.file.start_ns);
      assert.equal(wasm.file.end_ns, cli.file.end_ns);
      assert.deepEqual(wasm.tables.find((t) => t.name === 'topics').rows.map((r) => r.slice(0, 4)),
        cli.tables.find((t) => t.name === 'topics').rows.map((r) => r.slice(0, 4)));
      const wasmCheck = JSON.parse(inspector.check(() => true));
      const cliCheck = JSON.parse(runCli(['check', path, '--json']).stdout);
      const codes = (problems) => problems.map((p) => p.code).sort();
      assert.deepEqual(codes(wasmCheck.problems), codes(cliCheck.report.problems));
      return wasmCheck;
    } finally {
      close();
    }
  });
}

test('a writer-made .db3, whole and cut short, reads the same in wasm as natively', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-rosbag2-'));
  try {
    runCli(['make-demo-rosbag2', join(dir, 'demo'), '--size-mb', '1']);
    const db = join(dir, 'demo', 'demo_0.db3');
    const whole = await compare(db);
    assert.equal(whole.problems.filter((p) => p.severity === 'error').length, 0);
    const cut = join(dir, 'cut.db3');
    const bytes = readFileSync(db);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 4096 / 2) * 4096));
    const damaged = await compare(cut);
    assert.ok(damaged.problems.some((p) => p.code === 'rosbag2.recover.rows'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('chatter.db3 (no metadata.yaml) reads the same in wasm as natively', async (t) => {
  const chatter = join(samplesDir, 'rosbag2', 'foxglove__mcap__chatter', 'chatter.db3');
  if (!existsSync(chatter)) return t.skip('../shared/samples/rosbag2 is absent');
  await compare(chatter);
});

// A bag folder through the module's folder constructor (wasm/js_folder.h): names and sizes, one
// read over them; the first view (yaml counts, index totals) and the exact info report as the CLI.
async function openFolderWithWasm(dir) {
  const Module = await loadModule();
  const names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isFile());
  const fds = names.map((n) => openSync(join(dir, n), 'r'));
  const files = names.map((name, i) => ({ name, size: fstatSync(fds[i]).size }));
  const inspector = new Module.Inspector(dir.split('/').pop(), JSON.stringify(files), (index, offset, length, pointer) => readSync(fds[index], Module.HEAPU8, pointer, length, offset));
  return { inspector, size: files.reduce((n, f) => n + f.size, 0), close: () => { inspector.delete(); for (const fd of fds) closeSync(fd); } };
}

function compareFolder(inspector, dir) {
  const cli = JSON.parse(runCli(['info', dir, '--json']).stdout).summary;
  assert.equal(JSON.parse(inspector.detection()).family, 'rosbag2');
  const first = JSON.parse(inspector.summary());
  assert.deepEqual(first.file.counts, cli.file.counts);
  assert.equal(first.file.start_ns, cli.file.start_ns);
  assert.equal(first.file.end_ns, cli.file.end_ns);
  const exact = JSON.parse(inspector.infoReport(() => true));
  const topics = (r) => r.tables.find((t) => t.name === 'topics').rows;
  assert.deepEqual(topics(exact), topics(cli));
  // The first view: the same names, types and counts; first/last where decided, never different.
  for (const [i, row] of topics(first).entries()) {
    assert.deepEqual(row.slice(0, 4), topics(cli)[i].slice(0, 4));
    if (row[4] !== null) assert.equal(row[4], topics(cli)[i][4]);
    if (row[5] !== null) assert.equal(row[5], topics(cli)[i][5]);
  }
  const stats = JSON.parse(inspector.readStats());
  assert.ok(stats.bytes_read > 0 && stats.size > 0);
  return first;
}

test('a bag folder through the folder constructor reads as the CLI reads the folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-rosbag2-folder-'));
  try {
    runCli(['make-demo-rosbag2', join(dir, 'demo'), '--size-mb', '20']);
    const { inspector, size, close } = await openFolderWithWasm(join(dir, 'demo'));
    try {
      const summaryRead = JSON.parse(inspector.readStats()).bytes_read;
      const first = compareFolder(inspector, join(dir, 'demo'));
      assert.equal(first.facts.find((f) => f.key === 'counts_from')?.value, 'metadata.yaml');
      assert.deepEqual(first.later, ['topic_counts']);
      assert.ok(summaryRead < size / 20, `opening read ${summaryRead} of ${size} bytes`);
    } finally {
      close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the split bag folders of ../shared/samples/rosbag2 read the same through the folder constructor', async (t) => {
  const root = join(samplesDir, 'rosbag2');
  if (!existsSync(root)) return t.skip('../shared/samples/rosbag2 is absent');
  for (const name of ['ros2__rosbag2__wbag', 'ros2__rosbag2__message_compression', 'ros2__rosbag2__test_2018']) {
    const { inspector, close } = await openFolderWithWasm(join(root, name));
    try { compareFolder(inspector, join(root, name)); } finally { close(); }
  }
});
