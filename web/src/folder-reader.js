// The reader of a log that is a folder (a rosbag2 bag, web/src/folder-open.js), in the worker:
// one reader per file (a local File read in pieces through FileReaderSync, a remote one by
// Range), and one read function over them for the codec's Folder (wasm/js_folder.h). The byte
// views (hex, the worker's `bytes`) show one file, the bag's first database, as the codec's tree does.
import { fileReader, httpReader } from './readers.js';

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
 * @property {() => void} close
 * @property {undefined} [readAhead]
 * @property {undefined} [ready]
 * @property {undefined} [readInto]
 * @property {number} [scatteredReads]
 * @property {{[pass: string]: {bytes: number, feeder: boolean}}} [fed]
 */

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
      if (file.readInto) return file.readInto(offset, length, heap, pointer);
      const bytes = file.read(offset, length);
      heap.set(bytes, pointer);
      return bytes.length;
    },
    close() { for (const f of files) f.close?.(); },
  };
}
