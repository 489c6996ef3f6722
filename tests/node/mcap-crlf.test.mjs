// A line-ending conversion undone (codec/mcap/line_endings.h) as @mcap/core sees it: a
// make-demo-mcap file whose every message sits in one zstd chunk (an unchunked demo extracted
// with zstd: extract writes one chunk of up to 1 MiB), converted as git autocrlf
// converts a file it takes for text (every "\r" before a "\n" deleted), is repaired by
// `logscope repair`; McapIndexedReader (every CRC checked) then reads every message of the
// original, equal in channel, sequence, times and payload. `logscope check` names the chunk and
// the bytes it lost. tests/codec/test_mcap_line_endings.cpp covers lz4, uncompressed chunks,
// CRCs of zero and ambiguity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexedView, runCli, streamView } from './mcap-support.mjs';

// Every "\r" directly before a "\n" removed: what a text-mode conversion makes of the file.
export function convertLineEndings(bytes) {
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; ++i) if (!(bytes[i] === 0x0d && bytes[i + 1] === 0x0a)) out[n++] = bytes[i];
  return out.subarray(0, n);
}

test('one zstd chunk with every message, its "\\r\\n"s turned into "\\n": repair restores every message McapIndexedReader reads', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-crlf-'));
  try {
    const unchunked = join(dir, 'unchunked.mcap');
    const original = join(dir, 'original.mcap');
    assert.equal(runCli(['make-demo-mcap', unchunked, '--size-mb', '0.1', '--unchunked']).status, 0);
    assert.equal(runCli(['extract', unchunked, original, '--compression', 'zstd']).status, 0);
    const originalView = await indexedView(original);
    assert.equal(originalView.chunkIndexes, 1, 'the demo file has one chunk');
    const bytes = readFileSync(original);
    const converted = convertLineEndings(bytes);
    const lost = bytes.length - converted.length;
    assert.ok(lost >= 3, `the conversion removed the two magics' "\\r"s and some in the chunk (${lost})`);
    const damaged = join(dir, 'converted.mcap');
    writeFileSync(damaged, converted);

    const check = runCli(['check', damaged, '--json']);
    assert.equal(check.status, 1);
    const problems = JSON.parse(check.stdout).report.problems;
    const chunkLoss = problems.filter((p) => p.code === 'mcap.crlf.bytes_lost' && / Chunk at byte /.test(p.message));
    assert.equal(chunkLoss.length, 1, JSON.stringify(problems.map((p) => p.code)));
    assert.match(chunkLoss[0].message, /repair puts them back; its CRC decides/);
    t.diagnostic(chunkLoss[0].message);

    const repaired = join(dir, 'repaired.mcap');
    const repair = runCli(['repair', damaged, repaired]);
    assert.equal(repair.status, 0, repair.stdout);
    const view = await indexedView(repaired);
    assert.equal(view.messages.length, originalView.messages.length);
    assert.deepEqual(view.messages, (await streamView(original)).messages);
    assert.deepEqual(view.metadata, originalView.metadata);
    assert.deepEqual(view.attachments, originalView.attachments);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
