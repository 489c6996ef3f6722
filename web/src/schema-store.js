// The message schemas the user gave the page, remembered in IndexedDB (database
// "logscope-schemas", one store "sets"): each a descriptor set's bytes or a folder's .proto or
// ROS 2 .msg text,
// with its name, when it was added, and the message types it holds, so a later file with one of
// those types loads it by itself (schemas.js). Nothing else is kept; Forget deletes a set. Where
// the browser gives the page no IndexedDB, the sets last until the page is closed.

const DB_NAME = 'logscope-schemas';
const STORE = 'sets';

/**
 * A remembered set: what the codec worker loads (SchemaSetData) and what the page shows.
 * @typedef {import('./types.js').SchemaSetData & {added: string, types: string[], description: string}} StoredSchemaSet
 */

/** @type {Promise<IDBDatabase | null> | null} */
let opening = null;
/** @type {StoredSchemaSet[] | null} the sets, once read */
let cached = null;
/** @type {Promise<StoredSchemaSet[]> | null} */
let reading = null;
let nextMemoryId = 1; // ids of sets kept in memory only (no IndexedDB)

/** @returns {Promise<IDBDatabase | null>} */
function database() {
  opening ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opening;
}

/**
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
const done = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

// Every remembered set, oldest first (read once, then kept in memory).
/** @returns {Promise<StoredSchemaSet[]>} */
export function storedSchemaSets() {
  reading ??= (async () => {
    const db = await database();
    /** @type {StoredSchemaSet[]} */
    let sets = [];
    if (db) {
      try { sets = await done(db.transaction(STORE).objectStore(STORE).getAll()); } catch { sets = []; }
    }
    cached = sets.sort((a, b) => a.id - b.id);
    return cached;
  })();
  return reading;
}

// The sets if they were read already (the page reads them when it starts), else null.
export const storedSchemaSetsNow = () => cached;

// Whether the sets outlive the page.
export const schemasPersist = async () => Boolean(await database());

/**
 * Remembers a set; returns it with its id.
 * @param {import('./types.js').SchemaSetContent & {added: string, types: string[], description: string}} set
 * @returns {Promise<StoredSchemaSet>}
 */
export async function rememberSchemaSet(set) {
  const sets = await storedSchemaSets();
  const db = await database();
  const id = db ? Number(await done(db.transaction(STORE, 'readwrite').objectStore(STORE).add(set))) : nextMemoryId++;
  const stored = /** @type {StoredSchemaSet} */ ({ ...set, id });
  sets.push(stored);
  return stored;
}

/** @param {number} id */
export async function forgetSchemaSet(id) {
  const sets = await storedSchemaSets();
  const db = await database();
  if (db) await done(db.transaction(STORE, 'readwrite').objectStore(STORE).delete(id));
  const at = sets.findIndex((s) => s.id === id);
  if (at >= 0) sets.splice(at, 1);
}
