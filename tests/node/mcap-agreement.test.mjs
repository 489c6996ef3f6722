// logscope and @mcap/core agree on every MCAP file: the real samples (skipped when ../shared is
// absent) and files written by make-demo-mcap in each layout. Messages are compared as sorted
// lists of (channel, sequence, log_time, publish_time, payload SHA1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplesDir } from '../wasm/support.mjs';
import { indexedView, isMcap, logscopeView, runCli, streamView } from './mcap-support.mjs';

const mcapSamples = join(samplesDir, 'mcap');

async function assertAgreement(path) {
  const ours = logscopeView(path);
  const stream = await streamView(path);
  assert.ok(stream.done, `${path}: @mcap/core's stream reader reached the end`);
  assert.ok(ours.messages.length > 0 || stream.messages.length === 0, `${path}: messages`);
  assert.deepEqual(ours.messages, stream.messages, `${path}: messages against McapStreamReader`);
  assert.deepEqual(ours.channels, stream.channels, `${path}: channels against McapStreamReader`);
  assert.deepEqual(ours.attachments, stream.attachments, `${path}: attachments against McapStreamReader`);
  assert.deepEqual(ours.metadata, stream.metadata, `${path}: metadata against McapStreamReader`);
  let indexed = null, indexedRefusal = null;
  try {
    indexed = await indexedView(path);
  } catch (error) {
    // McapIndexedReader may refuse a file without a summary, and one whose DataEnd is not the
    // 13 bytes before the summary (a padded DataEnd, as the conformance file "-pad-" has): it
    // reads DataEnd at summary_start - 13 only. Any other refusal is a disagreement.
    const details = JSON.parse(runCli(['info', path, '--json']).stdout).summary.details;
    const paddedDataEnd = details.footer && details.footer.summary_start > 0 && details.data_end_offset !== details.footer.summary_start - 13;
    assert.ok(details.summary_source !== 'summary' || paddedDataEnd, `${path}: McapIndexedReader refused a file logscope reads from its summary: ${error.message}`);
    indexedRefusal = error.message;
  }
  if (indexed) {
    if (indexed.chunkIndexes > 0) assert.deepEqual(ours.messages, indexed.messages, `${path}: messages against McapIndexedReader`);
    assert.deepEqual(ours.schemas, indexed.schemas, `${path}: schemas against McapIndexedReader`);
    assert.deepEqual(ours.channels, indexed.channels, `${path}: channels against McapIndexedReader`);
    assert.deepEqual(ours.attachments, indexed.attachments, `${path}: attachments against McapIndexedReader`);
    assert.deepEqual(ours.metadata, indexed.metadata, `${path}: metadata against McapIndexedReader`);
  } else {
    assert.deepEqual(ours.schemas, stream.schemas, `${path}: schemas against McapStreamReader`);
  }
  return { messages: ours.messages.length, indexed: indexed !== null, indexedRefusal };
}

test('every real MCAP sample: logscope and @mcap/core list the same messages, schemas, channels, attachments, metadata', async (t) => {
  if (!existsSync(mcapSamples)) return t.skip(`${mcapSamples} is absent`);
  const files = readdirSync(mcapSamples).filter((n) => n.endsWith('.mcap')).map((n) => join(mcapSamples, n));
  const mcaps = files.filter(isMcap);
  assert.ok(files.length > mcaps.length, 'the impostor .mcap is in the folder and is skipped');
  for (const path of mcaps) {
    const got = await assertAgreement(path);
    t.diagnostic(`${path}: ${got.messages} messages${got.indexed ? ', indexed' : ''}${got.indexedRefusal ? `; McapIndexedReader: ${got.indexedRefusal}` : ''}`);
  }
});

test('writer-made files (zstd, lz4, none, unchunked, no summary; attachments, metadata): logscope and @mcap/core agree', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-mcap-agree-'));
  try {
    const layouts = {
      zstd: ['--compression', 'zstd', '--chunk-kb', '64'],
      lz4: ['--compression', 'lz4', '--chunk-kb', '64'],
      none: ['--compression', 'none', '--chunk-kb', '64'],
      unchunked: ['--unchunked'],
      'no-summary': ['--no-summary', '--chunk-kb', '64'],
      'unchunked-no-summary': ['--unchunked', '--no-summary'],
    };
    for (const [name, flags] of Object.entries(layouts)) {
      const path = join(dir, `${name}.mcap`);
      assert.equal(runCli(['make-demo-mcap', path, '--size-mb', '0.6', ...flags]).status, 0);
      const got = await assertAgreement(path);
      assert.ok(got.messages > 100, `${name}: ${got.messages} messages`);
      assert.equal(got.indexed, !name.includes('no-summary'), `${name}: McapIndexedReader opens it exactly when it has a summary`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
