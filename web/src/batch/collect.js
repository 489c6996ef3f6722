// The files of a batch, from a drop (files and folders), the file chooser with several files, or
// the folder chooser. Each is {file, path} ({path, error} when it cannot be read), listed as
// `logscope check --recursive` lists them: the order given, and within a folder its names sorted,
// sub-folders walked where they sort (cli/batch.cpp walk), with paths relative to what was dropped.

/** A file of the batch (or a bag folder, one log: web/src/folder-open.js), or why it could not be read. @typedef {{file: File | import('../types.js').BagFolder, path: string, error?: undefined} | {path: string, error: string, file?: undefined}} BatchItem */
/** What a drop carries: a file, or a directory to walk. @typedef {{file: File, entry?: undefined} | {entry: FileSystemDirectoryEntry, file?: undefined}} Dropped */
/** @typedef {{onFound?: (count: number) => void, signal?: AbortSignal}} WalkOptions */

// Code-unit order, like the CLI's byte order for names without characters beyond U+FFFF.
/** @type {(a: string, b: string) => number} */
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * @param {string} a
 * @param {string} b
 */
function comparePaths(a, b) {
  const x = a.split('/'), y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = compare(x[i], y[i]);
    if (c) return c;
  }
  return x.length - y.length;
}

// A FileList from a chooser. The folder chooser gives every file with its path from the chosen
// folder ("run1/cam/a.bag"), in no set order: sorted as the walk would find them.
/**
 * @param {FileList | File[]} files
 * @returns {BatchItem[]}
 */
export function fromFileList(files) {
  const items = [...files].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
  if (items.length && items.every((item) => item.file.webkitRelativePath)) items.sort((a, b) => comparePaths(a.path, b.path));
  return items;
}

// What a drop carries, taken at once: the browser empties the DataTransfer when the drop event
// returns. Each dropped thing is a file, or a directory entry to walk later.
/**
 * @param {DataTransfer | null | undefined} dataTransfer
 * @returns {Dropped[]}
 */
export function takeDrop(dataTransfer) {
  /** @type {Dropped[]} */
  const dropped = [];
  for (const item of dataTransfer?.items || []) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.() || null;
    if (entry?.isDirectory) dropped.push({ entry: /** @type {FileSystemDirectoryEntry} */ (entry) });
    else {
      const file = item.getAsFile();
      if (file) dropped.push({ file });
    }
  }
  if (!dropped.length) for (const file of dataTransfer?.files || []) dropped.push({ file });
  return dropped;
}

// More than one file, or a folder: a batch for the table rather than one file for the inspector.
/** @type {(dropped: Dropped[]) => boolean} */
export const isBatch = (dropped) => dropped.length > 1 || dropped.some((d) => d.entry);

/** @type {(entry: FileSystemFileEntry) => Promise<File>} */
const entryFile = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));

// Every entry of a directory: readEntries answers in pieces (100 at a time in Chromium) until empty.
/**
 * @param {FileSystemDirectoryEntry} entry
 * @returns {Promise<FileSystemEntry[]>}
 */
async function listDirectory(entry) {
  const reader = entry.createReader();
  /** @type {FileSystemEntry[]} */
  const all = [];
  for (;;) {
    /** @type {FileSystemEntry[]} */
    const some = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!some.length) return all;
    all.push(...some);
  }
}

/** @type {(error: unknown) => string} */
const describe = (error) => String(/** @type {import('../types.js').ErrorLike | null | undefined} */ (error)?.message || /** @type {import('../types.js').ErrorLike | null | undefined} */ (error)?.name || error || 'unknown error');

// Walks a directory entry depth first, in name order. onFound(count) reports how many files were
// found so far (a big folder takes a while to list); signal stops the walk.
/**
 * @param {FileSystemEntry} entry
 * @param {string} path
 * @param {BatchItem[]} out
 * @param {WalkOptions} options
 */
async function walk(entry, path, out, { onFound, signal }) {
  if (signal?.aborted) return;
  if (entry.isFile) {
    try {
      out.push({ file: await entryFile(/** @type {FileSystemFileEntry} */ (entry)), path });
    } catch (error) {
      out.push({ path, error: `${path}: the browser could not read the file (${describe(error)})` });
    }
    if (out.length % 200 === 0) onFound?.(out.length);
    return;
  }
  if (!entry.isDirectory) return;
  let children;
  try {
    children = await listDirectory(/** @type {FileSystemDirectoryEntry} */ (entry));
  } catch (error) {
    out.push({ path, error: `${path}: cannot list the directory (${describe(error)})` });
    return;
  }
  children.sort((a, b) => compare(a.name, b.name));
  for (const child of children) await walk(child, `${path}/${child.name}`, out, { onFound, signal });
}

// The files of a drop taken by takeDrop, with its folders walked.
/**
 * @param {Dropped[]} dropped
 * @param {WalkOptions} [options]
 * @returns {Promise<BatchItem[]>}
 */
export async function collectDrop(dropped, options = {}) {
  /** @type {BatchItem[]} */
  const out = [];
  for (const { file, entry } of dropped) {
    if (file) out.push({ file, path: file.name });
    else await walk(entry, entry.name, out, options);
  }
  options.onFound?.(out.length);
  return out;
}
