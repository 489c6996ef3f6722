// The page's codec without schemas exports a BDDF protobuf series by field number
// (codec/protobuf/raw.h): the same text as `logscope export --series N` without --descriptors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule, openWithWasm, runCli, samplesDir } from './support.mjs';

async function wasmExport(path, options) {
  const Module = await loadModule();
  const wasm = await openWithWasm(path);
  const pieces = [];
  const sink = {
    error: '',
    write(pointer, length) {
      pieces.push(Buffer.from(Module.HEAPU8.subarray(pointer, pointer + length)));
      return true;
    },
    patch() { return false; },
  };
  try {
    const result = JSON.parse(wasm.inspector.exportRows(JSON.stringify(options), sink, null));
    return { result, text: Buffer.concat(pieces).toString('utf8') };
  } finally {
    wasm.close();
  }
}

test('a protobuf series exports by field number in wasm as the CLI does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-protobuf-'));
  try {
    const demo = join(dir, 'spot.bddf');
    assert.equal(runCli(['make-demo-bddf', demo, '--size-mb', '1']).status, 0);
    const files = [[demo, 'bosdyn.api.RobotState']];
    const sample = join(samplesDir, 'bddf', 'robot_state_small.bddf');
    if (existsSync(sample)) files.push([sample, '0'], [sample, '1']);
    else t.diagnostic(`${sample} is absent: only the demo file was compared`);
    for (const [file, series] of files) {
      for (const format of ['csv', 'jsonl']) {
        const cli = runCli(['export', file, '--series', series, '--format', format]);
        assert.equal(cli.status, 0, `${file} ${series}: CLI export`);
        const { result, text } = await wasmExport(file, { series, format });
        assert.equal(result.ok, true, result.error);
        assert.ok(text.split('\n')[0].includes(','), 'numeric columns by field number');
        assert.equal(text, cli.stdout, `${file} series ${series} (${format})`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
