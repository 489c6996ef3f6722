// What the virtual-log tests share (virtual-{bag,mcap,bddf,carla}.test.mjs): the CLI run
// asynchronously (the server answering it lives in the test's process), a check result without its
// path, the check that ranges read alone equal the same ranges of the whole file, and a plot by
// URL counted in rounds.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { cliPath } from '../wasm/support.mjs';
import { startServer } from '../../bench/virtual/serve.mjs';

const run = promisify(execFile);
export const needCli = !existsSync(cliPath) && 'build/native/logscope is not built (npm run build:native)';

// { status, stdout, stderr }; status null when it was stopped after `timeout` ms.
export async function cli(args, timeout = 0) {
  try {
    const { stdout, stderr } = await run(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout, env: { ...process.env, TZ: 'UTC' } });
    return { status: 0, stdout, stderr };
  } catch (error) {
    if (error.killed) return { status: null, stdout: error.stdout, stderr: `killed after ${timeout} ms` };
    if (typeof error.code !== 'number') throw error;
    return { status: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

export const comparable = (json) => ({ ...json, path: undefined });

// 3000 ranges at random offsets, short and long, of a virtual log { size, read }.
export function assertRangesAgree(log) {
  const whole = log.read(0, log.size);
  assert.equal(whole.length, log.size);
  let seed = 7;
  const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let i = 0; i < 3000; ++i) {
    const offset = random(log.size), length = random(i % 2 ? 64 : 300000);
    assert.ok(log.read(offset, length).equals(whole.subarray(offset, offset + length)), `range ${offset}+${length}`);
  }
}

// A plot of `sampled` chunks of a 100 GB virtual log by URL, from a server 20 ms late that answers
// several ranges as nginx does, then from one that answers only the first (one range a request):
// both plots must be the same and sampled as asked. `bounds` gives the most rounds (requests
// waited for one after another: bench/virtual/serve.mjs) for each server.
export async function assertPlotRounds({ ext, template, topic, fields, sampled, bounds, maxRequests }) {
  const args = JSON.stringify({ topic, fields, max_chunks: sampled });
  const answers = {};
  for (const multiRange of ['multipart', 'first']) {
    const server = await startServer({ templates: { [ext]: template }, multiRange, delayMs: 20 });
    try {
      const plot = await cli(['query', `${server.base}/plot.${ext}?size=100G`, 'plot', '--args', args], 240000);
      assert.equal(plot.status, 0, `${multiRange}: ${plot.stderr}`);
      const answer = JSON.parse(plot.stdout);
      assert.equal(answer.sampled?.chunks_read, sampled, `${multiRange}: ${plot.stdout.slice(0, 300)}`);
      assert.ok(answer.count > sampled, `${multiRange}: ${answer.count} points`);
      answers[multiRange] = answer;
      const { requests, rounds } = server.stats;
      assert.ok(rounds <= bounds[multiRange], `${multiRange}: ${rounds} rounds of ${requests} requests for ${sampled} chunks`);
      assert.ok(requests <= maxRequests, `${multiRange}: ${requests} requests for ${sampled} chunks`);
    } finally {
      await server.close();
    }
  }
  assert.deepEqual(answers.first, answers.multipart);
}
