// What the codec worker tells the page besides answers (web/src/worker-client.js reads them):
// what it is doing where that may block (starting a helper worker), notices (a helper is missing,
// so the work goes on more slowly) and a heartbeat while a request waits on something
// asynchronous. The page's watchdog takes any message as a sign of life; a worker silent for
// longer than its deadline is reported with the last thing it said it was doing.

// Posts to the page only where this runs in a worker (helpers import the offload modules too).
/** @param {import('./types.js').WorkerSignal} signal */
function post(signal) {
  if (typeof WorkerGlobalScope !== 'undefined') self.postMessage(signal);
}

// What may block next (null: nothing in particular). helper: it is a helper worker's start, which
// the page restarts once, then goes on without (worker-client.js).
/**
 * @param {string | null} text
 * @param {{helper?: boolean}} [options]
 */
export function doing(text, { helper = false } = {}) {
  post({ doing: text, helper });
}

// A short notice for the page: a slower path taken, not an error.
/** @param {string} text */
export function notice(text) {
  post({ notice: text });
}

// Alive, while a request waits on a promise (a module load, a helper's start, a read).
export function beat() {
  post({ beat: true });
}
