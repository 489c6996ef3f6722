// The reader of a log that is a folder (a rosbag2 bag, web/src/folder-open.js), in the worker:
// one reader per file (a local File read in pieces through FileReaderSync, a remote one by
// Range), and one read function over them for the codec's Folder (wasm/js_folder.h). The byte
// views (hex, the worker's `bytes`) show one file, the bag's first database, as the codec's tree does.
import { fileReader, httpReader } from './readers.js';
import { readScattered } from './scattered-reads.js';

/** @typedef {import('./types.js').BagFolderFile} BagFolderFile */
/** @typedef {import('./readers.js').LocalReader | import('./readers.js').HttpReader} FileReader */

/**
 * @typedef {object} FolderReader
 * @property {'folder'} kind
 * @property {string} name
 * @property {number} size all its files' (as the CLI's batch counts a folder)
 * @property {number} bytesRead
 * @property {number} requests
 * @property {FileReader[]} files
 * @property {(offset: number, length: number) => Uint8Array} read
 * @property {(offset: number, length: number) => Promise<Uint8Array>} readRange
 * @property {(index: number, offset: number, length: number, heap: Uint8Array, pointer: number) => number} readFileInto
 * @property {(wave: [index: number, offset: number, length: number][]) => Promise<void>} prefetch
 * @property {() => void} dropPrefetched
 * @property {() => void} close
 * @property {undefined} [readAhead]
 * @property {undefined} [ready]
 * @property {undefined} [readInto]
 * @property {number} [scatteredReads]
 * @property {{[pass: string]: {bytes: number, feeder: boolean}}} [fed]
 */

const MAX_PREFETCH_RUN = 1 << 20; // adjacent pages fetched in one read, up to this many bytes

// The split index of `name_3.db3` (3), or Infinity.
/** @param {string} name */
const splitIndex = (name) => {
  const m = /_(\d{1,9})\.db3$/.exec(name);
  return m ? Number(m[1]) : Infinity;
};

// The bag's first database: the lowest split index, else the first by name.
/** @param {string[]} names */
export function firstDatabase(names) {
  const databases = names.map((name, i) => ({ name, i })).filter(({ name }) => /\.db3$/.test(name) || names.includes(`${name}-wal`));
  databases.sort((a, b) => splitIndex(a.name) - splitIndex(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return databases.length ? databases[0].i : -1;
}

/**
 * @param {{name: string, files: BagFolderFile[]}} source
 * @returns {FolderReader}
 */
export function folderReader(source) {
  /** @type {FileReader[]} */
  const files = source.files.map((f) => (f.file ? fileReader(f.file) : httpReader({ url: f.url, size: f.size, name: f.name, etag: f.etag, lastModified: f.lastModified })));
  // Ranges fetched ahead (prefetch), per file: offset -> bytes, served before the file.
  /** @type {Map<number, Uint8Array>[]} */
  let prefetched = files.map(() => new Map());
  /** @type {(index: number, offset: number, length: number) => Uint8Array | null} */
  const fromPrefetched = (index, offset, length) => {
    const held = prefetched[index];
    if (!held?.size) return null;
    const first = held.get(offset);
    if (first && first.length >= length) return first.subarray(0, length);
    // A read over adjacent fetched ranges (the codec's cache grows sequential reads).
    const out = new Uint8Array(length);
    for (let at = 0; at < length;) {
      const piece = held.get(offset + at);
      if (!piece) return null;
      const take = Math.min(piece.length, length - at);
      out.set(piece.subarray(0, take), at);
      at += take;
    }
    return out;
  };
  const first = firstDatabase(source.files.map((f) => f.name));
  const shown = first >= 0 ? files[first] : null;
  return {
    kind: 'folder',
    name: source.name,
    size: files.reduce((n, f) => n + f.size, 0),
    files,
    get bytesRead() { return files.reduce((n, f) => n + f.bytesRead, 0); },
    set bytesRead(_) { /* the sum of its files' */ },
    get requests() { return files.reduce((n, f) => n + (f.requests || 0), 0); },
    set requests(_) { /* the sum of its files' */ },
    read: (offset, length) => (shown ? shown.read(offset, length) : new Uint8Array(0)),
    readRange: (offset, length) => (shown ? shown.readRange(offset, length) : Promise.resolve(new Uint8Array(0))),
    // One file's bytes into the codec's memory (or returned, for a remote file).
    readFileInto(index, offset, length, heap, pointer) {
      const file = files[index];
      if (!file) return 0;
      const held = fromPrefetched(index, offset, Math.max(0, Math.min(length, file.size - offset)));
      if (held) {
        heap.set(held, pointer);
        return held.length;
      }
      if (file.readInto) return file.readInto(offset, length, heap, pointer);
      const bytes = file.read(offset, length);
      heap.set(bytes, pointer);
      return bytes.length;
    },
    // One wave of a plan of first reads (wasm/js_folder.h JsFolderReadPlan): adjacent ranges of a
    // file go in one read, the reads several at once. A range that fails is left to the codec's
    // own read, which reports the failure where it belongs.
    async prefetch(wave) {
      const sorted = [...wave].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      /** @type {{index: number, offset: number, lengths: number[]}[]} */
      const runs = [];
      for (const [index, offset, length] of sorted) {
        const last = runs[runs.length - 1];
        const end = last ? last.offset + last.lengths.reduce((n, l) => n + l, 0) : -1;
        if (last && last.index === index && end === offset && end - last.offset < MAX_PREFETCH_RUN) last.lengths.push(length);
        else runs.push({ index, offset, lengths: [length] });
      }
      // readScattered keys each read by its first number: here the run's index in `runs`.
      await readScattered((at, length) => {
        const run = runs[at];
        return files[run.index].readRange(run.offset, length);
      }, runs.map((run, at) => [at, run.lengths.reduce((n, l) => n + l, 0)]), (at, bytes) => {
        const run = runs[at];
        let from = 0;
        for (const length of run.lengths) {
          if (from + length > bytes.length) break;
          prefetched[run.index].set(run.offset + from, bytes.subarray(from, from + length));
          from += length;
        }
        return true;
      });
    },
    // After the first view: the codec's caches hold what it still reads often.
    dropPrefetched() { prefetched = files.map(() => new Map()); },
    close() { for (const f of files) f.close?.(); },
  };
}
