// What every helper worker does the same way (decompress-worker.js, hash-worker.js, pump-worker.js).
// The generated glue is not type-checked (web/tsconfig.json): its type is LogscopeFactory.
// @ts-ignore -- gen/ is not part of the typecheck (and may not be built yet)
import createLogscope from '../gen/logscope.mjs';
import { instantiateCodec } from './helper-start.js';

// The helper's own instance of the codec module, or null once it has told its creator why not.
// `codec`: the module its creator compiled (helper-start.js sharedCodec), instantiated rather than
// compiled again; without it the helper fetches and compiles its own.
/**
 * @param {string} what
 * @param {WebAssembly.Module | null} [codec]
 * @returns {Promise<import('./types.js').LogscopeModule | null>}
 */
export async function loadHelperModule(what, codec = null) {
  try {
    const create = /** @type {import('./types.js').LogscopeFactory} */ (createLogscope);
    if (codec) return await instantiateCodec(create, codec);
    return await create();
  } catch (error) {
    self.postMessage(`the ${what} worker could not load the codec: ${/** @type {Error} */ (error).message || error}`);
    return null;
  }
}

// Blocks until words[k] is `want`, or until `ms` have passed (false). It waits on the value just
// seen: loading it again for the wait could see `want` arrive and then sleep through the notify
// that came with it.
/**
 * @param {Int32Array} words
 * @param {number} k
 * @param {number} want
 * @param {number} ms
 */
export function waitUntil(words, k, want, ms) {
  const started = performance.now();
  for (let now = Atomics.load(words, k); now !== want; now = Atomics.load(words, k)) {
    const left = ms - (performance.now() - started);
    if (left <= 0) return false;
    Atomics.wait(words, k, now, left);
  }
  return true;
}

// An idle helper waits for work a second at a time and yields to its event loop in between, so
// no wait is unbounded and the helper stays live (its creator stops it with terminate()).
const IDLE_WAIT_MS = 1000;
/**
 * @param {Int32Array} words
 * @param {number} k
 * @param {number} want
 */
export async function waitForWork(words, k, want) {
  while (!waitUntil(words, k, want, IDLE_WAIT_MS)) await new Promise((resolve) => setTimeout(resolve, 0));
}
