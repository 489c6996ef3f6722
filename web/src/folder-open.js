// Logs that are folders (issue 27): a rosbag2 bag folder (metadata.yaml, its *_N.db3 split files,
// each database's -wal) opens as ONE log, whether chosen with the folder chooser, dropped, listed
// in a batch of many logs (one row per bag folder) or named by ?url= of its metadata.yaml (each
// file then read by Range, relative to the yaml's URL). The worker reads the files through one
// Folder (wasm/js_folder.h, web/src/folder-reader.js), each in pieces, never whole.
import { probeRemote, nameOfUrl } from './remote.js';
// @ts-ignore -- gen/ is written by the build (scripts/write-folder-rules.mjs) and not typechecked
import folderRules from '../gen/folder-rules.js';

/** @typedef {import('./types.js').BagFolderFile} BagFolderFile */
/** @typedef {import('./types.js').BagFolder} BagFolder */
/** @typedef {import('./batch/collect.js').BatchItem} BatchItem */
/** @typedef {import('./batch/collect.js').Dropped} Dropped */

const YAML = 'metadata.yaml';
const MAX_YAML_BYTES = 16 * 1024 * 1024; // the codec's cap too (codec/rosbag2/bag.cpp)

/** @typedef {import('./types.js').FolderRule} FolderRule */

/** The codec's folder rules, one per format whose log is a folder (FolderRule in codec/core/format_table.h). */
const FOLDER_RULES = /** @type {FolderRule[]} */ (folderRules);

// Is `name` a split of the folder `folder`: `<folder>_<N><ending>`, N without a leading zero.
/** @type {(rule: FolderRule, folder: string, name: string) => boolean} */
function isSplit(rule, folder, name) {
  const prefix = `${folder}_`;
  if (!folder || !name.startsWith(prefix)) return false;
  return rule.split_endings.some((ending) => {
    if (name.length <= prefix.length + ending.length || !name.endsWith(ending)) return false;
    const digits = name.slice(prefix.length, name.length - ending.length);
    return digits.length <= rule.split_digits && /^(0|[1-9][0-9]*)$/.test(digits);
  });
}

// Does the folder meet the rule: one of its files is named as the rule says (the codec's
// FolderRule::match, by names alone, so the page groups a folder's files as the CLI opens it).
/** @type {(rule: FolderRule, folder: string, names: string[]) => boolean} */
function meetsFolderRule(rule, folder, names) {
  const set = new Set(names);
  const isCompanion = (/** @type {string} */ n) => rule.companions.some((c) => n.endsWith(c));
  return rule.names.some((n) => set.has(n))
    || names.some((n) => rule.endings.some((e) => n.endsWith(e)))
    || names.some((n) => !isCompanion(n) && rule.companions.some((c) => set.has(n + c)))
    || names.some((n) => isSplit(rule, folder, n));
}

// Does the folder named `folderName` (its own name, not a path) with these files hold one log
// that is a folder (a rosbag2 bag: a metadata.yaml, databases, splits named after the folder).
/**
 * @param {string} folderName
 * @param {string[]} names
 */
export function isBagFolder(folderName, names) {
  return FOLDER_RULES.some((rule) => meetsFolderRule(rule, folderName, names));
}

/**
 * One bag from its files (names within the folder).
 * @param {string} name the folder's name
 * @param {{name: string, file: File}[]} files
 * @returns {BagFolder}
 */
export function localBag(name, files) {
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { name, size: sorted.reduce((n, f) => n + f.file.size, 0), bag: { files: sorted.map((f) => ({ name: f.name, file: f.file })) } };
}

// The header's words after a log's size: " in a folder of 6 files" for a bag folder, else "".
/** @param {import('./session.js').OpenedFile} file */
export const folderWords = (file) => (file.bag ? ` in a folder of ${file.bag.files.length} ${file.bag.files.length === 1 ? 'file' : 'files'}` : '');

/** @type {(path: string) => [dir: string, base: string]} */
const splitPath = (path) => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? ['', path] : [path.slice(0, slash), path.slice(slash + 1)];
};

// The batch's items with each bag folder's files replaced by one item, {file: BagFolder, path:
// the folder's path}, where its first file was (its files are one row, as the CLI's batch does).
/**
 * @param {BatchItem[]} items
 * @returns {BatchItem[]}
 */
export function groupBagFolders(items) {
  /** @type {Map<string, BatchItem[]>} */
  const byDir = new Map();
  for (const item of items) {
    const [dir] = splitPath(item.path);
    if (!dir) continue;
    byDir.set(dir, [...(byDir.get(dir) || []), item]);
  }
  /** @type {Map<string, BagFolder>} */
  const bags = new Map();
  for (const [dir, list] of byDir) {
    if (list.some((item) => !item.file)) continue; // a file that could not be read stays its own row
    if (isBagFolder(splitPath(dir)[1], list.map((item) => splitPath(item.path)[1]))) {
      bags.set(dir, localBag(splitPath(dir)[1], list.map((item) => ({ name: splitPath(item.path)[1], file: /** @type {File} */ (item.file) }))));
    }
  }
  if (!bags.size) return items;
  /** @type {BatchItem[]} */
  const out = [];
  const placed = new Set();
  for (const item of items) {
    const [dir] = splitPath(item.path);
    const bag = bags.get(dir);
    if (!bag) out.push(item);
    else if (!placed.has(dir)) {
      placed.add(dir);
      out.push({ file: bag, path: dir });
    }
  }
  return out;
}

// The folder chooser's files, when the chosen folder is itself one bag (its files directly in
// it, webkitRelativePath "folder/name"): the bag, else null (a batch).
/**
 * @param {File[]} files
 * @returns {BagFolder | null}
 */
export function bagOfChosenFolder(files) {
  if (!files.length) return null;
  const parts = files.map((f) => (f.webkitRelativePath || '').split('/'));
  if (parts.some((p) => p.length !== 2) || new Set(parts.map((p) => p[0])).size !== 1) return null;
  const names = parts.map((p) => p[1]);
  if (!isBagFolder(parts[0][0], names)) return null;
  return localBag(parts[0][0], files.map((file, i) => ({ name: names[i], file })));
}

/** @type {(entry: FileSystemFileEntry) => Promise<File>} */
const entryFile = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));

// A drop of one folder that is itself a bag (files only, no sub-folders): the bag, else null.
/**
 * @param {Dropped[]} dropped
 * @returns {Promise<BagFolder | null>}
 */
export async function bagOfDrop(dropped) {
  if (dropped.length !== 1 || !dropped[0].entry) return null;
  const directory = dropped[0].entry;
  const reader = directory.createReader();
  /** @type {FileSystemEntry[]} */
  const entries = [];
  for (;;) {
    /** @type {FileSystemEntry[]} */
    const some = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!some.length) break;
    entries.push(...some);
  }
  if (!entries.length || entries.some((e) => !e.isFile) || !isBagFolder(directory.name, entries.map((e) => e.name))) return null;
  const files = await Promise.all(entries.map(async (e) => ({ name: e.name, file: await entryFile(/** @type {FileSystemFileEntry} */ (e)) })));
  return localBag(directory.name, files);
}

// The file names metadata.yaml lists under relative_file_paths ("- name" lines), in order.
/** @param {string} text */
export function yamlFilePaths(text) {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^\s*relative_file_paths\s*:/.test(l));
  if (at < 0) return [];
  const indent = /^(\s*)/.exec(lines[at])?.[1].length ?? 0;
  const out = [];
  for (const line of lines.slice(at + 1)) {
    const item = /^(\s*)-\s*(.+?)\s*$/.exec(line);
    if (!item) {
      if (line.trim() === '') continue;
      if ((/^(\s*)/.exec(line)?.[1].length ?? 0) <= indent) break;
      continue;
    }
    out.push(item[2].replace(/^(['"])(.*)\1$/, '$2'));
  }
  return out;
}

// Is this URL a bag's metadata.yaml (?url= opens the bag then).
/** @param {string} url */
export const isYamlUrl = (url) => nameOfUrl(url) === YAML;

// ?url= of a bag's metadata.yaml: the yaml fetched whole (it is small), then each file it names
// probed by one Range request relative to it, so the
// worker reads them in ranges; a file the server does not have (404) is left out, and the check
// names it missing. Resolves to the bag, or to the failed probe of a file.
/**
 * @param {string} url
 * @returns {Promise<{ok: true, bag: BagFolder} | {ok: false, result: import('./remote.js').ProbeFailed}>}
 */
export async function openRemoteBag(url) {
  const yamlProbe = await probeRemote(url);
  if (!yamlProbe.ok) return { ok: false, result: yamlProbe };
  if (yamlProbe.size > MAX_YAML_BYTES) return { ok: false, result: { ok: false, problem: 'http', url: yamlProbe.url, name: yamlProbe.name, status: 413, statusText: 'metadata.yaml is larger than 16 MB' } };
  const text = yamlProbe.whole ? await yamlProbe.whole.text() : await (await fetch(yamlProbe.url, { cache: 'no-store', credentials: 'omit' })).text();
  /** @type {BagFolderFile[]} */
  const files = [{ name: YAML, file: new File([text], YAML) }];
  const names = yamlFilePaths(text).map((path) => path.split('/').pop() || path);
  for (const name of names) {
    const href = new URL(encodeURIComponent(name), yamlProbe.url).href;
    const probe = await probeRemote(href);
    if (!probe.ok) {
      if (probe.problem === 'http' && probe.status === 404) continue; // the check names it missing
      return { ok: false, result: probe };
    }
    files.push(probe.whole ? { name, file: probe.whole } : { name, url: probe.url, size: probe.size, etag: probe.etag, lastModified: probe.lastModified });
    // A -wal is not asked for: a server cannot list a folder, a bag closed cleanly has none (the
    // request would fail, and the browser log it, for every such bag), and the codec notes a
    // WAL-mode database without one (rosbag2.wal.missing).
  }
  const parts = new URL(yamlProbe.url).pathname.split('/').filter(Boolean);
  const folder = parts.length > 1 ? decodeURIComponent(parts[parts.length - 2]) : YAML;
  const size = files.reduce((n, f) => n + ('file' in f && f.file ? f.file.size : /** @type {{size: number}} */ (f).size), 0);
  return { ok: true, bag: { remote: true, url: yamlProbe.url, name: folder, size, bag: { files } } };
}
