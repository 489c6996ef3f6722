// The files that extract, repair and export leave in the Origin Private File System (the job
// worker writes them, output-job.js). Each page names its files after its own id and holds a Web
// Lock of that name while it lives: files of pages that are gone (closed, crashed) are removed the
// next time a page writes one, and a page never removes a file another open page still offers.
// The folder of the outputs in the OPFS (the job worker's output-job.js writes there).
export const OUTPUT_DIR = 'logscope-outputs';

const PAGE_ID = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const lockName = (id) => `logscope-output-${id}`;
let count = 0;
/** @type {Promise<void> | null} */
let holding = null;

function holdLock() {
  if (!holding && navigator.locks) {
    holding = new Promise((/** @type {() => void} */ granted) => {
      navigator.locks.request(lockName(PAGE_ID), () => { granted(); return new Promise(() => {}); }).catch(() => granted());
    });
  }
  return holding || Promise.resolve();
}

async function directory() {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(OUTPUT_DIR, { create: true });
}

/** @type {(ms: number) => Promise<void>} */
const delay = (ms) => new Promise((ok) => setTimeout(ok, ms));

// The scratch file beside an output (output-job.js): a writer's index waiting for the end.
/** @param {string} name */
export const scratchName = (name) => `${name}~scratch`;

// A fresh name for the next output of this page.
export async function nextName() {
  await holdLock();
  count += 1;
  return `${PAGE_ID}~${count}`;
}

// Removes an output. A worker that was just stopped may still hold the file for a moment: retried.
export async function remove(name) {
  if (!name) return;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await (await directory()).removeEntry(name);
      return;
    } catch (error) {
      const name = /** @type {import('./types.js').ErrorLike | null | undefined} */ (error)?.name;
      if (name === 'NotFoundError' || name === 'SecurityError' || !navigator.storage?.getDirectory) return;
      await delay(200);
    }
  }
}

// Removes the outputs of pages that are gone (their lock is free).
export async function removeStale() {
  if (!navigator.locks || !navigator.storage?.getDirectory) return;
  try {
    const { held = [] } = await navigator.locks.query();
    const live = new Set(held.map((lock) => lock.name));
    const dir = await directory();
    const stale = [];
    for await (const name of dir.keys()) if (!live.has(lockName(name.split('~')[0]))) stale.push(name);
    for (const name of stale) await dir.removeEntry(name).catch(() => {});
  } catch { /* no OPFS here: nothing was left either */ }
}
