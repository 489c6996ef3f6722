// rosbag2 in wasm: SQLite compiled with SQLITE_OS_OTHER reads a .db3 through the codec's
// ByteSource VFS (the JS read callback, page by page) and agrees with the native CLI on a lone
// database: counts, times, topics and the check's problem codes, including a database cut short
// that the recovery extension salvages into memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWithWasm, runCli, samplesDir } from './support.mjs';

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
