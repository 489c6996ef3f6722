// What the virtual-log tests share (virtual-{bag,mcap,bddf,carla}.test.mjs): the CLI run
// asynchronously (the server answering it lives in the test's process), a check result without its
// path, and the check that ranges read alone equal the same ranges of the whole file.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { cliPath } from '../wasm/support.mjs';

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
