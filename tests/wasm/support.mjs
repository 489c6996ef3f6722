// Shared by the wasm tests: loads the node flavour of the module and opens files through it.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SAMPLE_FAMILIES } from '../sample-families.mjs';
import { fileURLToPath } from 'node:url';

// The module's local times follow this process's time zone and the CLI runs with TZ=UTC (runCli):
// the same zone for both, whatever the machine's (set before the module reads it).
process.env.TZ = 'UTC';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const samplesDir = process.env.LOGSCOPE_SAMPLES ? resolve(process.env.LOGSCOPE_SAMPLES) : resolve(root, '..', 'shared', 'samples'); // LOGSCOPE_SAMPLES: from a worktree
export const cliPath = join(root, 'build', 'native', 'logscope');
const modulePath = join(root, 'build', 'wasm', 'node', 'logscope-node.cjs');

let modulePromise;
export function loadModule() {
  if (!modulePromise) {
    const require = createRequire(import.meta.url);
    modulePromise = require(modulePath)();
  }
  return modulePromise;
}

// Opens a file with the wasm Inspector, reading it with fs.readSync on demand (never whole).
export async function openWithWasm(path) {
  const Module = await loadModule();
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  // Reads straight into the wasm heap (the bindings accept a byte count instead of an array).
  const inspector = new Module.Inspector(size, (offset, length, pointer) => readSync(fd, Module.HEAPU8, pointer, length, offset));
  return { inspector, size, close: () => { inspector.delete(); closeSync(fd); } };
}

// Runs the CLI; returns {status, stdout}. Non-zero exits are data, not exceptions.
export function runCli(args) {
  try {
    return { status: 0, stdout: execFileSync(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, TZ: 'UTC' } }) };
  } catch (error) {
    if (typeof error.status !== 'number') throw error;
    return { status: error.status, stdout: error.stdout };
  }
}

export function haveSamples() {
  return existsSync(samplesDir) && statSync(samplesDir).isDirectory();
}

// Every sample log of the formats logscope reads (not the README or truth files).
export function sampleFiles() {
  const files = [];
  for (const group of SAMPLE_FAMILIES) {
    const dir = join(samplesDir, group);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue; // a format with no samples yet
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      // rosbag/real is a folder of real bags beside their recorded `rosbag info` texts.
      const inner = statSync(path).isDirectory() ? readdirSync(path).map((n) => join(path, n)) : [path];
      for (const file of inner) if (!/\.(md|json|txt)$/.test(file) && statSync(file).isFile()) files.push(file);
    }
  }
  return files.sort();
}
