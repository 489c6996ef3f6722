// The codec worker: owns the wasm module, one Inspector and the reader of the open file.
// Protocol: {id, op, args} in; {id, ok, result} | {id, ok: false, error, fatal} | {id, progress} out.
// C++ runs synchronously here, so the page cancels long work by terminating this worker.
import { MemoryFile, describeReadError, makeReader, onSyncReads, prepareReadAhead, readAheadAvailable } from './src/readers.js';
import { DecompressOffload } from './src/decompress-offload.js';
import { HashOffload } from './src/hash-offload.js';
import { checkLine, rowFields } from './src/batch/result.js';
import { streamFeed } from './src/stream-feed.js';
import { readScattered } from './src/scattered-reads.js';
import { folderReader } from './src/folder-reader.js';
import { loadSchemaSets } from './src/schema-loading.js';
import { beat, configureHelpers, instantiateCodec, shareCodec, startHelper } from './src/helper-start.js';

/** @typedef {import('./src/types.js').LogscopeModule} LogscopeModule */
/** @typedef {import('./src/types.js').WasmInspector} WasmInspector */
/** @typedef {import('./src/types.js').ByteFeed} ByteFeed */
/** @typedef {import('./src/types.js').ProgressFn} ProgressFn */
/** @typedef {import('./src/types.js').WorkerOps} WorkerOps */
/** @typedef {import('./src/types.js').Detection} Detection */
/** @typedef {import('./src/types.js').Report} Report */
/** @typedef {import('./src/types.js').TreeNode} TreeNode */
/** @typedef {import('./src/types.js').FormatEntry} FormatEntry */
/** @typedef {import('./src/readers.js').Reader} Reader */

const HEAP_PREPARED_MB = 32; // opening a 1 GB BDDF's index peaks at about 20 MB of heap
/** @type {Promise<LogscopeModule> | null} */
let modulePromise = null;
/** @type {LogscopeModule | null} */
let Module = null;
/** @type {WasmInspector | null} */
let inspector = null;
/** @type {Reader | null} */
let reader = null;
/** @type {FormatEntry[]} */
let formatTable = []; // the codec's format table (codec/core/format_table.h), read once the module loads

// The open file's inspector and reader. Every request but open and checkFile runs only while a
// file is open (handle() answers "no file is open" before), so these are there for it.
function current() {
  if (!inspector || !reader) throw new Error('no file is open');
  return { inspector, reader };
}

// The page's `configure` (always its first message), and the view module the page compiled for
// every worker (worker-client.js codecModule), when it says it sends one: null if it could not.
/** @type {(config: import('./src/types.js').WorkerConfig) => void} */
let gotConfig = () => {};
const configured = new Promise((resolve) => { gotConfig = resolve; });
/** @type {(module: WebAssembly.Module | null) => void} */
let gotCodec = () => {};
/** @type {Promise<WebAssembly.Module | null>} */
const codecFromPage = new Promise((resolve) => { gotCodec = resolve; });
// A page that never sends it only costs this wait: the worker then compiles its own.
const CODEC_WAIT_MS = 30_000;

// The single-file build (scripts/build-dist.mjs --single) runs this worker from a Blob URL with the
// wasm inlined as base64 in LOGSCOPE_WASM_BASE64: it is handed to the module instead of fetched.
function inlinedOptions() {
  const inlined = /** @type {{LOGSCOPE_WASM_BASE64?: string}} */ (/** @type {unknown} */ (self)).LOGSCOPE_WASM_BASE64;
  if (!inlined) return {};
  const text = atob(inlined);
  const wasmBinary = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) wasmBinary[i] = text.charCodeAt(i);
  beat();
  return { wasmBinary, locateFile: (/** @type {string} */ path) => path };
}

// The single-file build inlines one module, the full module (it holds the view module's code).
const singleFile = () => Boolean(/** @type {{LOGSCOPE_WASM_BASE64?: string}} */ (/** @type {unknown} */ (self)).LOGSCOPE_WASM_BASE64);

// Whether the page asked for the view module's heap to be prepared while no file is open (WorkerConfig).
let heapEarly = true;

// Loading the module is a few long steps that block this worker (in the single-file build:
// decoding the inlined wasm, compiling it, preparing the heap), each several seconds in WebKit on
// a loaded machine: a beat after each tells the page's watchdog (worker-client.js) it is alive.
function loadModule() {
  if (!modulePromise) {
    beat();
    // The generated glue is not type-checked (web/tsconfig.json): its type is LogscopeFactory.
    // @ts-ignore -- gen/ is not part of the typecheck (and may not be built yet)
    modulePromise = Promise.all([singleFile() ? import('./gen/logscope-full.mjs') : import('./gen/logscope.mjs'), configured])
      .then(async ([/** @type {{default: import('./src/types.js').LogscopeFactory}} */ m, config]) => {
        heapEarly = config.prepareHeap !== false;
        const compiled = !singleFile() && config.codecFromPage
          ? await Promise.race([codecFromPage, new Promise((resolve) => setTimeout(() => resolve(null), CODEC_WAIT_MS))])
          : null;
        if (!compiled) return m.default(inlinedOptions());
        const codec = await instantiateCodec(m.default, /** @type {WebAssembly.Module} */ (compiled));
        shareCodec(/** @type {WebAssembly.Module} */ (compiled));
        return codec;
      })
      .then((/** @type {LogscopeModule} */ mod) => {
        Module = mod;
        beat();
        // Grow the heap and touch it once now, while no file is open: the first touch of fresh
        // memory is slow, and opening a big index would otherwise pay for it (wasm/bindings.cpp).
        // (Not in a job worker: it prepares the heap of the module it opens in, when it opens.)
        if (!openAsked && heapEarly) prepareHeapOnce(Module);
        beat();
        formatTable = JSON.parse(Module.formats());
        return Module;
      });
  }
  return modulePromise;
}

/** @type {WeakSet<LogscopeModule>} */
const heapPrepared = new WeakSet();
/** @type {(mod: LogscopeModule) => void} */
function prepareHeapOnce(mod) {
  if (!heapPrepared.has(mod)) mod.prepareHeap(HEAP_PREPARED_MB);
  heapPrepared.add(mod);
}

// The full module: the view module plus extract, repair and export (writers, compressors) and
// the formats whose reading links a big library (the table's `module: "full"`). The view module
// leaves it out to keep the first visit small; it loads on first use. The single-file build's one
// module is both.
/** @type {Promise<LogscopeModule> | null} */
let fullPromise = null;
function loadFullModule() {
  if (singleFile()) return loadModule();
  // @ts-ignore -- gen/ is not part of the typecheck (and may not be built yet)
  fullPromise ??= import('./gen/logscope-full.mjs').then((/** @type {{default: import('./src/types.js').LogscopeFactory}} */ m) => m.default());
  fullPromise.catch(() => { fullPromise = null; });
  return fullPromise;
}

// The module that reads the open file (the view module, or the full one for a format read there).
/** @type {LogscopeModule | null} */
let readingModule = null;

/**
 * The reader's bytes for `mod`'s memory: readers that can write into the codec's memory do (no
 * intermediate copy); HEAPU8 is looked up on every call because growing the memory replaces it.
 * @param {Reader} open
 * @param {LogscopeModule} mod
 * @returns {import('./src/types.js').ReadFn}
 */
function readFor(open, mod) {
  return open.readInto
    ? (offset, length, pointer) => /** @type {NonNullable<Reader['readInto']>} */ (open.readInto)(offset, length, mod.HEAPU8, pointer)
    : (offset, length) => open.read(offset, length);
}

// The codec's inspector over a reader. A remote file's fetches a pass's planned chunks (a plot's
// sample, an export's) a window at a time, in one request each (HttpReader.readWindow).
/**
 * @param {LogscopeModule} mod
 * @param {Reader} open
 */
function inspectorOver(mod, open) {
  const inspector = new mod.Inspector(open.size, readFor(open, mod));
  if (open.kind === 'url') inspector.setRangeFetcher((/** @type {number[]} */ flat) => open.readWindow(flat));
  return inspector;
}

// An inspector of the open file in the full module, for jobs that write a file: the open one
// when the file is read there already, else a second one over the same reader.
/** @type {{inspector: WasmInspector, Module: LogscopeModule, for: WasmInspector} | null} */
let fullOpen = null;
async function fullInspector() {
  const { inspector: open, reader: openReader } = current();
  const Full = await loadFullModule();
  if (readingModule === Full) return { Module: Full, inspector: open };
  if (fullOpen?.for === open) return fullOpen;
  fullOpen?.inspector.delete();
  fullOpen = { Module: Full, inspector: inspectorOver(Full, openReader), for: open };
  return fullOpen;
}

// A log that is a folder (a rosbag2 bag, web/src/folder-open.js): read in the full module, which
// has the formats that are folders; each file is read in pieces through its own reader.
/** @param {{kind: 'folder', name: string, files: import('./src/types.js').BagFolderFile[]}} source */
async function openFolder(source) {
  const Full = await loadFullModule();
  const opening = folderReader(source);
  reader = opening;
  const started = performance.now();
  const files = JSON.stringify(source.files.map((f) => ({ name: f.name, size: f.file ? f.file.size : f.size })));
  const read = (/** @type {number} */ index, /** @type {number} */ offset, /** @type {number} */ length, /** @type {number} */ pointer) =>
    opening.readFileInto(index, offset, length, Full.HEAPU8, pointer);
  // A remote bag: the format's plan of the first view's reads (its index pages), fetched wave by
  // wave, several requests at once. One read per SQLite page was one round trip each: over 25 ms
  // round trips a 40 MB bag's summary waited for 51 of them one after another, with the plan 26
  // (tests/web/rosbag2.test.mjs). A local file's reads cost no round trip: no plan. The plan is a
  // hint: if a read of it fails, the open below reads for itself and says what failed.
  /** @type {{next: () => string, delete: () => void} | null} */
  let plan = null;
  try {
    if (opening.files.some((f) => f.kind === 'url')) plan = new Full.FolderReadPlan(source.name, files, read);
    for (let wave = 0; plan && wave < 12; wave++) {
      /** @type {[number, number, number][]} */
      const ranges = parse(plan.next()) || [];
      if (!ranges.length) break;
      await opening.prefetch(ranges);
    }
  } catch {
    // (the open below meets the same failure where it can report it)
  } finally {
    plan?.delete();
  }
  inspector = new Full.Inspector(source.name, files, read);
  readingModule = Full;
  const opened = inspector;
  const total = source.files.reduce((n, f) => n + (f.file ? f.file.size : f.size), 0);
  return { detection: parse(opened.detection()), known: opened.known(), format: openFormat(), size: total, name: source.name, openMs: performance.now() - started, readStats: parse(opened.readStats()) };
}

// A remote open reads by sync XHR: a 100 GB bag's 25 MiB index took 210-280 ms so, 160 by fetch.
// So it first runs as a trial on the probe's head, what it lacks answered empty: the first read it
// lacked is the open's next (the same bytes before it), fetched while the heap is prepared, and the
// open finds it there. One trial only: a second, on bytes fetched, grew a 100 GB BDDF file's heap
// from 193 to 304 MiB (its open without its index). A huge read is left to the open (with progress).
const PLAN_MAX_BYTES = 64 << 20;
/**
 * @param {LogscopeModule} View
 * @param {import('./src/readers.js').HttpReader} opening
 * @param {ProgressFn} progress
 * @returns {Promise<WasmInspector>}
 */
async function openRemote(View, opening, progress) {
  /** @type {[offset: number, end: number][]} */
  const missing = (opening.missing = []);
  /** @type {WasmInspector | null} */
  let trial = null;
  try {
    trial = inspectorOver(View, opening);
  } catch {
    // (the open below meets the same failure where it can report it)
  } finally {
    opening.missing = null;
  }
  if (trial && !missing.length) return trial; // all in the head
  trial?.delete();
  const [offset, end] = missing[0] ?? [0, 0];
  // A failed fetch leaves the read to the open, which says why in its words.
  const fetching = end > offset && end - offset <= PLAN_MAX_BYTES ? opening.fetchAhead(offset, end - offset).then(() => true, () => false) : null;
  prepareHeapOnce(View); // meanwhile
  if (fetching && (await fetching)) progress(opening.bytesRead, 0); // as a synchronous read tells (onSyncReads)
  return inspectorOver(View, opening);
}

// The user's protobuf schemas for this worker's file (op useSchemas, from src/schemas.js), and
// what loading them gave. Once asked for, the file is read in the full module, which decodes
// protobuf by name; an empty list still does (formats that carry their schemas: MCAP).
/** @type {import('./src/types.js').SchemaSetData[] | null} */
let schemaSets = null;
/** @type {import('./src/types.js').SchemaSetLoad[]} */
let schemaLoads = [];
async function applySchemas() {
  if (!schemaSets || !inspector || !reader) return;
  const Full = await loadFullModule();
  if (readingModule !== Full) {
    const opened = inspectorOver(Full, reader);
    if (!opened.known()) { opened.delete(); throw new Error('the full module cannot read this file'); }
    inspector.delete();
    inspector = opened;
    readingModule = Full;
    fullOpen?.inspector.delete();
    fullOpen = null;
  }
  const { schemas, loads } = loadSchemaSets(Full, schemaSets);
  try { inspector.setMessageSchemas?.(schemas); } finally { schemas.delete(); }
  schemaLoads = loads;
}

// Warm start: compile and instantiate the module as soon as the worker exists, before a file is
// chosen. The read-ahead pump starts once the page has configured this worker (it may ask for no
// helpers: worker-client.js). The page's watchdog counts from the worker's start, and on a busy
// machine the module takes seconds to load (fetched and compiled off this thread): the worker
// beats meanwhile, for at most a minute (a load that never ends is still reported), so a request
// sent early is not taken for one held by a worker that cannot run.
const LOAD_BEATS_MS = 60_000;
beat();
const loading = setInterval(() => { if (performance.now() < LOAD_BEATS_MS) beat(); else clearInterval(loading); }, 1000);
loadModule().catch(() => { modulePromise = null; }).finally(() => clearInterval(loading));

// Test hooks the page passes with `configure` (worker-client.js, from the page's address):
// workerCannotRead makes this worker fail to read any File (as WebKit's worker does with a file
// of a page opened from file://).
/** @type {{workerCannotRead?: boolean}} */
let testHooks = {};

// Whether this worker can read the chosen file: WebKit's worker cannot read a File of a page
// opened from file:// (NotReadableError on every read) while the page itself can.
/** @param {File} file */
function readable(file) {
  if (!file.size) return true;
  try {
    if (testHooks.workerCannotRead) throw new DOMException('test hook', 'NotReadableError');
    new FileReaderSync().readAsArrayBuffer(file.slice(0, 1));
    return true;
  } catch (error) {
    if (/** @type {Error} */ (error)?.name !== 'NotReadableError') throw error;
    return false;
  }
}

// The page's copies of files this worker cannot read (worker-client.js sendCopy): asked for
// within the open request, so the requests queued after it (the summary) find the file open.
/** @type {Map<number, (answer: {copies?: import('./src/types.js').FileCopy[], error?: string}) => void>} */
const copiesAsked = new Map();
/**
 * The source with the page's copies of its local files, held in memory (readers.js MemoryFile),
 * where this worker cannot read them: such a worker cannot read any Blob, not even the page's.
 * @template {import('./src/types.js').Source} S
 * @param {number} id the open request
 * @param {S} source
 * @returns {Promise<S>}
 */
async function readableSource(id, source) {
  const files = source.kind === 'file' ? [source.file] : source.kind === 'folder' ? source.files.flatMap((f) => (f.file ? [f.file] : [])) : [];
  if (files.every((file) => file instanceof MemoryFile || readable(/** @type {File} */ (file)))) return source;
  /** @type {{copies?: import('./src/types.js').FileCopy[], error?: string}} */
  const answer = await new Promise((resolve) => {
    copiesAsked.set(id, resolve);
    self.postMessage({ id, needCopy: true });
  });
  copiesAsked.delete(id);
  if (!answer.copies) throw new Error(answer.error);
  const copies = answer.copies.map((copy) => new MemoryFile(copy));
  if (source.kind === 'file') return { ...source, file: copies[0] };
  if (source.kind !== 'folder') return source;
  let next = 0;
  return { ...source, files: source.files.map((f) => (f.file ? { ...f, file: copies[next++] } : f)) };
}

// The open file's entry of the format table, or null.
/** @type {() => FormatEntry | null} */
const openFormat = () => (inspector ? formatTable.find((f) => f.name === /** @type {Detection | null} */ (parse(/** @type {WasmInspector} */ (inspector).detection()))?.family) ?? null : null);

// Whole-file passes spread over the cores: formats with chunks decompress them on helper workers
// (helper "decompress"), a format whose check hashes the file does so on one (helper "hash",
// web/src/hash-offload.js). The format table says which a format uses. Helpers are started the
// first time such a pass runs (they must be running before the codec blocks waiting for them).
/** @type {Promise<DecompressOffload | null> | null} */
let offload = null;
let cores = navigator.hardwareConcurrency || 1; // the page may allow fewer (configure)
/** @type {Promise<HashOffload | null> | null} */
let hashOffload = null;
/** @type {{decompress: DecompressOffload | null, hash: HashOffload | null}} the helpers once started */
const helpersUp = { decompress: null, hash: null };
const HASH_HELPER_MIN_CORES = 3;
// decompress: false for a pass that decompresses by itself (a fed check).
async function ensureOffload({ decompress = true } = {}) {
  // Only the helpers the format uses: other formats would pay for a helper that idles.
  const helpers = openFormat()?.helpers ?? [];
  if (!readAheadAvailable() || cores < 2 || !readingModule) return;
  const reading = readingModule;
  // The hash needs a core of its own beside the walk and the browser's reading: on 2 cores a
  // helper made the 1 GB check slower (3.6 s against 3.1 s, docs/benchmarks-browser.md).
  // A helper that does not start in time is started again once, then the pass runs without it
  // (helper-start.js), and the page is told.
  if (helpers.includes('hash') && !hashOffload && cores >= HASH_HELPER_MIN_CORES) {
    hashOffload = startHelper('The hashing helper', 'the check hashes the file by itself, more slowly', (ms) => HashOffload.start(ms))
      .then((started) => { helpersUp.hash = started; return started; })
      .catch(() => null);
  }
  if (helpers.includes('hash')) installHelper(reading, 'setSha1Offload', await hashOffload);
  if (!decompress || !helpers.includes('decompress')) return;
  offload ??= startHelper('The decompression helpers', 'the codec decompresses every chunk by itself, more slowly', (ms) => DecompressOffload.start(cores - 1, ms))
    .then((started) => { helpersUp.decompress = started; return started; })
    .catch(() => null);
  installHelper(reading, 'setDecompressOffload', await offload);
}

// The helpers serve the module that reads the file (the view module, or the full one in a job
// worker that writes outputs: session.js ensureJobs), each set on it once.
/** @type {WeakMap<LogscopeModule, Set<string>>} */
const helpersSet = new WeakMap();
/**
 * @param {LogscopeModule} mod
 * @param {'setSha1Offload' | 'setDecompressOffload'} setter
 * @param {HashOffload | DecompressOffload | null | undefined} helper
 */
function installHelper(mod, setter, helper) {
  if (!helper) return;
  const set = helpersSet.get(mod) ?? new Set();
  helpersSet.set(mod, set);
  if (set.has(setter)) return;
  /** @type {(helper: unknown) => void} */ (mod[setter])(helper);
  set.add(setter);
}

// The codec's JSON text parsed, as the type the caller expects (null for '').
/**
 * @template T
 * @param {string | null} text
 * @returns {T}
 */
const parse = (text) => (text ? JSON.parse(text) : /** @type {T} */ (null));

// Pushes the local file's stream into `feed` (a ByteFeed: web/src/stream-feed.js), or a remote
// file's ranges (web/src/remote-feed.js), and deletes it;
// returns the feed's answer, or null when there was no feed. `pass` names it in readStats.
/**
 * @param {ByteFeed | null} feed
 * @param {string} pass
 * @param {ProgressFn} progress
 * @returns {Promise<string | null>}
 */
async function feedFile(feed, pass, progress) {
  if (!feed) return null;
  const { reader } = current();
  try {
    const fed = reader.kind === 'url'
      ? await (await import('./src/remote-feed.js')).remoteFeed(/** @type {LogscopeModule} */ (readingModule), feed, /** @type {ReturnType<typeof import('./src/readers.js').httpReader>} */ (reader), progress)
      : await streamFeed(/** @type {LogscopeModule} */ (readingModule), feed, /** @type {import('./src/readers.js').LocalReader} */ (reader), progress);
    reader.fed ??= {};
    reader.fed[pass] = { bytes: (reader.fed[pass]?.bytes || 0) + fed.streamed, feeder: fed.fromFeeder };
    return fed.answer;
  } finally {
    feed.delete();
  }
}

// The full check's report, as the page's button and the batch table run it: its JSON text and
// the text parsed (once; a report can be large). A local file streams into what takes a stream:
// a CARLA log's scan with its actor references pass along (or that pass alone, once a scan is
// kept), a BDDF's block walk and SHA1, an MCAP's records, a bag's chunks unless they are bz2
// (pulled, so helpers decompress them). A feed that ended early keeps nothing, and check() then
// reads the file and reports what went wrong; one that asks for another read (a CARLA log cut
// inside a frame) keeps what it read, and check() reads only what remains.
/**
 * @param {ProgressFn} progress
 * @returns {Promise<{text: string, report: Report}>}
 */
async function checkReport(progress) {
  const { inspector, reader } = current();
  if (reader.kind === 'file') {
    const feed = inspector.checkFeed();
    // A fed check decompresses its chunks itself; it may hash on a helper.
    if (feed) await ensureOffload({ decompress: false });
    const text = await feedFile(feed, 'check', progress);
    /** @type {Report | null} */
    const report = parse(text);
    if (report && report.status !== 'incomplete') return { text: /** @type {string} */ (text), report };
  }
  await ensureOffload();
  const text = inspector.check(progress);
  return { text, report: parse(text) };
}

// Index of `id` among the children of `parent`, found by bisecting on offsets (children are in
// file order), so a node among a million siblings is found with ~20 small calls.
/**
 * @param {string} parent
 * @param {string} id
 * @param {number} offset
 */
function indexOfChild(parent, id, offset) {
  const { inspector } = current();
  const count = inspector.childCount(parent);
  /** @type {(i: number) => TreeNode | undefined} */
  const at = (i) => /** @type {TreeNode[]} */ (parse(inspector.children(parent, i, 1)))[0];
  let lo = 0, hi = count - 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const node = at(mid);
    if (node && node.offset <= offset) lo = mid; else hi = mid - 1;
  }
  for (let i = Math.max(0, lo - 3); i < Math.min(count, lo + 4); i++) {
    const node = at(i);
    if (node && node.id === id) return i;
  }
  if (count <= 20000) {
    for (let first = 0; first < count; first += 1000) {
      const page = /** @type {TreeNode[] | null} */ (parse(inspector.children(parent, first, 1000))) || [];
      const k = page.findIndex((n) => n.id === id);
      if (k >= 0) return first + k;
    }
  }
  return -1;
}

// Extract, repair and export (src/output-job.js, and the streamed download it may use): not part
// of a first visit, fetched with the first output (which fetches the full module that writes too).
/** @type {Promise<ReturnType<typeof import('./src/output-job.js').outputOps>> | null} */
let outputs = null;
const outputJobs = () => (outputs ??= import('./src/output-job.js').then((m) => m.outputOps(fullInspector)).catch((error) => {
  outputs = null; // the next output tries again (the network may be back)
  throw error;
}));
/**
 * Each request's handler (WorkerOps in src/types.js: its arguments and its answer).
 * @typedef {{[Op in keyof WorkerOps]: (args: WorkerOps[Op]['args'], progress: ProgressFn) => WorkerOps[Op]['result'] | Promise<WorkerOps[Op]['result']>}} Handlers
 */
/** @type {Handlers} */
const ops = {
  // full: read in the full module from the start (a job worker that writes outputs: one copy
  // of the file's index, not one in each module; session.js ensureJobs).
  async open({ source, full = false }, progress) {
    const View = await loadModule().then((view) => (full ? loadFullModule() : view));
    if (inspector) inspector.delete();
    inspector = null;
    fullOpen?.inspector.delete();
    fullOpen = null;
    reader?.close?.();
    source = await readableSource(requestId, source);
    if (source.kind === 'folder') return openFolder(source);
    const opening = (reader = await makeReader(source));
    const started = performance.now();
    // The bytes read so far, as the open's progress (of no known total): a big index (358 MiB
    // for a 100 GB BDDF file) takes seconds, and the page shows them with its Cancel.
    onSyncReads(() => progress(opening.bytesRead, 0));
    /** @type {WasmInspector} */
    let opened;
    /** @type {Detection | null} */
    let detection;
    try {
      if (opening.kind === 'url') {
        opened = (inspector = await openRemote(View, opening, progress));
      } else {
        prepareHeapOnce(View);
        opened = (inspector = inspectorOver(View, opening));
      }
      readingModule = View;
      detection = parse(opened.detection());
      // A format read in the full module: the view module detects it and has no reader for it.
      if (!opened.known() && formatTable.find((f) => f.name === detection?.family)?.module === 'full') {
        const Full = await loadFullModule();
        if (Full !== View) {
          opened.delete();
          opened = (inspector = inspectorOver(Full, opening));
          readingModule = Full;
          detection = parse(opened.detection());
        }
      }
    } finally {
      onSyncReads(null);
      if (opening.kind === 'url') opening.dropAhead();
    }
    const openMs = performance.now() - started;
    const known = opened.known();
    if (known) await applySchemas(); // the page asked for schemas before this worker opened the file (it may replace `opened`)
    // format: the format's entry of the table (name, label, endings, operations, source nouns...).
    return { detection, known, format: openFormat(), size: opening.size, name: opening.name, openMs, readStats: parse(current().inspector.readStats()) };
  },
  async summary(_, progress) {
    const { inspector, reader } = current();
    // A format without an index (CARLA) scans the whole file first: a local file streams into
    // the scan, a remote one comes in large ranges, several in flight (src/remote-feed.js). An
    // incomplete feed keeps nothing, and summary() then scans by reading, which reports what went
    // wrong as before.
    await feedFile(reader.kind === 'file' || reader.kind === 'url' ? inspector.scanFeed() : null, 'scan', progress);
    const summary = parse(inspector.summary());
    if (reader.kind === 'folder') reader.dropPrefetched();
    return summary;
  },
  async infoReport(_, progress) {
    await preloadScatteredReads(progress);
    return parse(current().inspector.infoReport(progress));
  },
  check: async (_, progress) => (await checkReport(progress)).report,
  async fileMap({ fullCheck }, progress) {
    if (fullCheck) await ensureOffload();
    return parse(current().inspector.fileMap(!!fullCheck, progress));
  },
  async checksum(_, progress) {
    // A local file streams into the checksum from a feeder worker (web/src/stream-feed.js),
    // isolated or not: measured faster than pulling it through the read-ahead ring, which
    // copies every byte once more.
    const { inspector, reader } = current();
    const local = reader.kind === 'file';
    const answer = await feedFile(local ? inspector.checksumFeed() : null, 'checksum', progress);
    if (answer !== null) return parse(answer);
    // A local file without a feed mostly has nothing to verify (checksum() answers without
    // reading), so no decompression helper is started for it; a bag the feed cannot cut (chunks
    // sharing a position, a span over 64 MB) is verified here on one core.
    if (!local) await ensureOffload();
    return parse(inspector.checksum(progress));
  },
  // The batch table (web/src/batch/): opens, checks and closes one file. Only the row and the
  // file's `check --json` line (a Blob, off the JS heap) go back, never the report.
  async checkFile({ source, path }, progress) {
    const opened = await ops.open({ source }, progress);
    const file = current();
    await file.reader.ready;
    const detectionText = file.inspector.detection();
    const checked = opened.known ? await checkReport(progress) : null;
    const reportText = checked?.text ?? null;
    const row = rowFields(opened.detection, checked?.report ?? null, { path, formats: formatTable });
    const line = new Blob([checkLine({ path, size: file.reader.size, detectionText, reportText }), '\n']);
    file.inspector.delete();
    inspector = null;
    file.reader.close?.();
    reader = null;
    return { ...row, line };
  },
  async infoText({ options }) {
    if (!options?.freq) await preloadScatteredReads();
    return current().inspector.infoText(JSON.stringify(options || {}));
  },
  childCount: ({ id }) => current().inspector.childCount(id),
  children: ({ id, first, count }) => parse(current().inspector.children(id, first, count)),
  locate: ({ offset }) => parse(current().inspector.locate(offset)),
  reveal({ offset }) {
    /** @type {unknown} */
    const path = parse(current().inspector.locate(offset));
    if (!Array.isArray(path)) return [];
    /** @type {import('./src/types.js').RevealStep[]} */
    const out = [];
    let parent = '';
    for (const id of path) {
      const index = indexOfChild(parent, id, offset);
      if (index < 0) break;
      out.push({ id, parent, index });
      parent = id;
    }
    return out;
  },
  spans: ({ offset, length }) => (current().inspector.known() ? parse(current().inspector.spans(offset, length)) : []),
  bytes({ offset, length }) {
    const data = current().reader.read(offset, length);
    return data;
  },
  decode: ({ id }) => parse(current().inspector.decode(id)),
  // 64-bit integers (ns) go both ways as decimal strings (docs/report.md, "Query results").
  query: ({ name, args }, progress) => parse(current().inspector.query(name, JSON.stringify(args || {}), progress)),
  // A query only the full module answers (a view a tab asks on first use: transforms).
  async fullQuery({ name, args }, progress) {
    const { inspector: full } = await fullInspector();
    return parse(full.query(name, JSON.stringify(args || {}), progress));
  },
  // The images query (codec/views/image_query.h) with its frame's pixels or stored bytes, copied
  // out of the full module's heap (they never go through JSON) and transferred to the page.
  async imageFrame({ args }, progress) {
    const { Module: Full, inspector: full } = await fullInspector();
    const answer = parse(full.query('images', JSON.stringify(args || {}), progress));
    return { answer, bytes: /** @type {NonNullable<LogscopeModule['lastFrameBytes']>} */ (Full.lastFrameBytes)().slice() };
  },
  search: ({ hex, from, backward }, progress) => parse(current().inspector.search(hex, from, backward, progress)),
  readStats: async () => ({
    .../** @type {import('./src/types.js').CodecReadStats} */ (parse(current().inspector.readStats())),
    reader_bytes: reader ? reader.bytesRead : 0,
    reader_requests: reader ? reader.requests || 0 : 0,
    reader_read_ms: reader?.kind === 'file' ? Math.round(reader.readMs) : 0, // in synchronous reads of a local file (its disk, its IPC)
    reader_fetched_ahead: reader?.kind === 'url' ? reader.fetchedAhead : 0, // bytes an open's trial fetched (openRemote)
    scattered_reads: reader?.scatteredReads ?? 0,
    read_ahead: Boolean(reader?.readAhead),
    read_ahead_ring_bytes: reader?.readAhead ? reader.readAhead.slots * reader.readAhead.slotSize : 0,
    read_ahead_bytes: reader?.readAhead?.streamed ?? 0,
    read_ahead_waited_ms: Math.round(reader?.readAhead?.waitedMs ?? 0),
    checksum_streamed_bytes: reader?.fed?.checksum?.bytes ?? 0,
    checksum_feeder: Boolean(reader?.fed?.checksum?.feeder),
    scan_streamed_bytes: reader?.fed?.scan?.bytes ?? 0,
    scan_feeder: Boolean(reader?.fed?.scan?.feeder),
    check_streamed_bytes: reader?.fed?.check?.bytes ?? 0,
    check_feeder: Boolean(reader?.fed?.check?.feeder),
    chunks_offloaded: (await offload)?.offloaded ?? 0,
    offload_helpers: (await offload)?.helpers.length ?? 0,
    offload_memory: (await offload)?.memory() ?? 0,
    offload_busy_ms: (await offload)?.busyMs() ?? 0,
    offload_waited_ms: Math.round((await offload)?.waitedMs ?? 0),
    hash_offloaded_bytes: (await hashOffload)?.offloadedBytes ?? 0,
    hash_memory: (await hashOffload)?.memory() ?? 0,
    hash_busy_ms: (await hashOffload)?.busyMs() ?? 0,
    hash_waited_ms: Math.round((await hashOffload)?.waitedMs ?? 0),
    wasm_memory: readingModule?.HEAPU8?.length ?? 0,
    // The full module beside it, when a view or an output opened the file there too (the images view).
    full_memory: fullOpen && fullOpen.Module !== readingModule ? fullOpen.Module.HEAPU8?.length ?? 0 : 0,
  }),
  // The user's protobuf schemas (src/schemas.js): kept for this worker's file, applied once it is open.
  async useSchemas({ sets }) {
    schemaSets = sets;
    schemaLoads = [];
    if (inspector?.known()) await applySchemas();
    return { loads: schemaLoads, applied: Boolean(inspector?.known()) };
  },
  // Extract, repair and export into a new file (src/output-job.js), fetched with the first output.
  // prepareOutputs fetches it and the full module before the page may start the service worker
  // that streams downloads (output-run.js), which takes over this worker's requests. A CI run saw
  // Firefox fail this import after a 60 s stall with that worker just in control (its limit for a
  // pending event is 30 + 30 s); fetched first, the code does not depend on it. Not reproduced here.
  prepareOutputs: async () => { await Promise.all([outputJobs(), loadFullModule()]); },
  writeOutput: async (args, progress) => (await outputJobs()).writeOutput(args, progress),
  takeOutput: async (args, progress) => (await outputJobs()).takeOutput(args, progress),
  discardOutput: async (args, progress) => { if (outputs) await (await outputs).discardOutput(args, progress); },
};

// The scattered reads of infoReport and infoText (a bag's chunk headers) fetched at once, several
// in flight, into the codec's cache: it then finds them there instead of reading one at a time.
/** @param {ProgressFn} [progress] */
async function preloadScatteredReads(progress = () => true) {
  const { inspector, reader } = current();
  /** @type {[offset: number, length: number][]} */
  const ranges = parse(inspector.infoReportReads()) || [];
  if (!ranges.length || !reader.readRange) return;
  /** @type {(offset: number, bytes: Uint8Array) => boolean} */
  const take = (offset, bytes) => {
    reader.scatteredReads = (reader.scatteredReads || 0) + 1;
    return inspector.preload(offset, bytes);
  };
  if (reader.kind === 'url') await (await import('./src/byteranges.js')).readScatteredRemote(reader, ranges, take, progress);
  else await readScattered((offset, length) => reader.readRange(offset, length), ranges, take, progress);
}

// Requests that read only the index, a few small ranges or nothing of the file (prepareOutputs
// fetches code): they never wait for the read-ahead.
const INDEX_OPS = new Set(['open', 'prepareOutputs', 'checkFile', 'useSchemas', 'summary', 'readStats', 'childCount', 'children', 'locate', 'reveal', 'spans', 'bytes', 'decode', 'infoText']);

// Requests that read a pass's planned chunks (a plot's, an export's, the MCAP timeline's message
// indexes, the chunk heads of the tree's top level, a bag's chunk heads and IndexData for the
// images' frame times: HttpReader.readWindow).
const PLANNED_QUERIES = new Set(['plot', 'columns', 'decoded', 'timeline']);
/** @param {string} op @param {unknown} args */
const readsPlanned = (op, args) => op === 'writeOutput' || op === 'imageFrame' || (op === 'children' && !(/** @type {{id?: string}} */ (args)?.id)) ||
  ((op === 'query' || op === 'fullQuery') && PLANNED_QUERIES.has(/** @type {{name?: string}} */ (args)?.name ?? ''));

// Requests run one after another: `open` awaits the module, and later requests need its result.
let queue = Promise.resolve();
let requestId = 0; // the request being handled
// An open arrived (it may wait in the queue behind the warm-up): warming up then only delays it.
let openAsked = false;
self.onmessage = (event) => {
  // The page's copy of a file, for an open waiting on it (not queued: that open holds the queue).
  if (event.data.op === 'fileCopy') return copiesAsked.get(event.data.id)?.(event.data.args);
  // The page's compiled module, for a load waiting on it (not queued, for the same reason).
  if (event.data.op === 'codec') return gotCodec(event.data.args);
  if (event.data.op === 'configure') gotConfig(event.data.args);
  // The page's watchdog asks whether this thread can run (worker-client.js): answered at once, not queued.
  if (event.data.op === 'ping') return beat();
  if (event.data.op === 'open') openAsked = true;
  queue = queue.then(() => handle(event.data));
};

/** @param {import('./src/types.js').WorkerRequest} request */
async function handle({ id, op, args }) {
  if (op === 'configure') {
    const options = /** @type {import('./src/types.js').WorkerConfig} */ (args);
    cores = Math.max(1, Math.min(options.cores || cores, navigator.hardwareConcurrency || 1));
    configureHelpers({ helpers: options.helpers, helperStartMs: options.helperStartMs, test: options.test });
    testHooks = options.test || {};
    if (options.prepareHelpers !== false) prepareReadAhead();
    return;
  }
  if (op === 'prepareHelpers') return void prepareReadAhead();
  if (op === 'warmUp') {
    // Compiles the opening path before a file is chosen (codec/warm_up.h). Compiled code is shared
    // by every worker of the page, so one worker does it; a failure only loses the head start.
    // One format at a time, and none once a file is asked for (a link with ?url= asks while the
    // module loads): the open then waits for one format's warm-up at most, not every format's
    // (the whole warm-up took 110-160 ms here), and compiles what it runs itself.
    try {
      const loaded = await loadModule();
      for (let i = 0; i < formatTable.length && !openAsked; i++) {
        loaded.warmUpFormat(i);
        await new Promise((resolve) => setTimeout(resolve)); // an open posted meanwhile arrives here
      }
    } catch { /* the open that follows reports real errors */ }
    return;
  }
  if (op === 'warmPasses') {
    // JavaScriptCore runs new WebAssembly code in its baseline tier and optimises the hot
    // functions while they run: in WebKit a page's first whole-file pass took about twice its
    // second (bench/engines.mjs). Hashing 32 MB here, when the job worker has opened a large
    // file, gets SHA1 optimised while the user reads the summary (tens of ms where it already is).
    try {
      const Module = await loadModule();
      const piece = 4 << 20;
      for (let i = 0; i < 8; i++) {
        Module.helperInput(piece).fill(0);
        Module.sha1Update(piece);
      }
      Module.sha1Finish();
    } catch { /* only the head start is lost */ }
    return;
  }
  if (op === '__crash__') {
    // Test hook: an uncaught error outside any request, like a bug in the worker would cause. The
    // queue waits for it, so a request sent after it never runs first (a small file's check
    // could finish before the timer fired).
    return new Promise(() => setTimeout(() => { throw new Error('simulated worker crash'); }));
  }
  if (op === '__hang__') {
    // Test hook: this worker stops answering (busy, as a worker frozen in the browser is) for
    // args.ms; the page's watchdog stops it long before (worker-client.js).
    const until = performance.now() + (/** @type {{ms?: number}} */ (args).ms || 60_000);
    while (performance.now() < until) { /* not answering */ }
    return;
  }
  // A request from the page: its arguments are the op's (WorkerOps), as WorkerClient.call types them.
  const handler = /** @type {((args: unknown, progress: ProgressFn) => unknown) | undefined} */ (ops[/** @type {keyof WorkerOps} */ (op)]);
  if (!handler) return self.postMessage({ id, ok: false, error: `unknown operation ${op}` });
  if (op !== 'open' && op !== 'checkFile' && op !== 'useSchemas' && !inspector) return self.postMessage({ id, ok: false, error: 'no file is open' });
  let last = 0;
  /** @type {ProgressFn} */
  const progress = (done, total) => {
    const now = performance.now();
    if (now - last > 80 || done >= total) {
      last = now;
      self.postMessage({ id, progress: { done, total, memory: memoryNow() } });
    }
    return true;
  };
  // Alive while the request waits on something asynchronous (the page's watchdog hears it); a
  // synchronous pass says so by its progress.
  const beating = setInterval(beat, 1000);
  try {
    if (!INDEX_OPS.has(op)) await reader?.ready; // a pass may read the whole file: with read-ahead (bounded: helper-start.js)
    if (reader?.kind === 'url' && readsPlanned(op, args)) await reader.learnMultipart(); // before readWindow may need it
    requestId = id;
    const result = await handler(args || {}, progress);
    const bytes = result instanceof Uint8Array ? result : /** @type {{bytes?: unknown} | null} */ (result)?.bytes;
    const transfer = bytes instanceof Uint8Array ? [bytes.buffer] : [];
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (thrown) {
    const error = /** @type {import('./src/types.js').ErrorLike | number | null | undefined} */ (thrown);
    // A trap inside wasm (abort, out of bounds, out of memory) leaves the module unusable.
    // (Emscripten's own words: not any message with "memory" in it, such as the page's "could not
    // hold the file in memory", which leaves the module as it was.)
    const fatal = error instanceof WebAssembly.RuntimeError || typeof error === 'number' || (error && /^(Aborted|abort)\b|out of memory|memory access out of bounds|Cannot enlarge memory|WebAssembly\.Memory/i.test(String(error.message || error)));
    self.postMessage({ id, ok: false, fatal, error: describe(error), code: (error && typeof error === 'object' && error.name) || null });
  } finally {
    clearInterval(beating);
  }
}

// This worker's WebAssembly memory now: its modules' (the view module's too when the file is read
// in the full one) and its helpers' (wasm memory never shrinks, so also their peak). Sent with
// each progress report: readStats waits behind a running pass.
function memoryNow() {
  const modules = new Set([Module, readingModule, fullOpen?.Module]);
  let bytes = 0;
  for (const mod of modules) bytes += mod?.HEAPU8?.length ?? 0;
  return bytes + (helpersUp.decompress?.memory() ?? 0) + (helpersUp.hash?.memory() ?? 0);
}

/** @param {unknown} error */
function describe(error) {
  if (typeof error === 'number') return `the codec raised a C++ exception (${error})`;
  return describeReadError(error);
}
