// Protobuf by name in the page: the user's schemas (a descriptor set, or a folder of .proto
// files), and ROS 2 .msg definitions for a bag that stores none (messageDefinitions), remembered in this browser (schema-store.js) and loaded into both of the file's codec
// workers, which then read the file in the full module (worker.js useSchemas; the view module
// has only the lite runtime, so the first visit stays small). Without a schema, protobuf fields
// are named by field number (1.3[2].5). A format's module says which of its types need schemas
// (messageTypes) or that the file carries its own (embeddedSchemas: MCAP); the Data view shows
// the panel below (schemaView), and the views ask again once the schemas change (session
// event "schemas").
import { h, clear, formatCount } from './dom.js';
import { storedSchemaSets, storedSchemaSetsNow, rememberSchemaSet, forgetSchemaSet, schemasPersist } from './schema-store.js';
import { takeDrop, collectDrop, fromFileList } from './batch/collect.js';

/** @typedef {import('./schema-store.js').StoredSchemaSet} StoredSchemaSet */
/** @typedef {import('./types.js').SchemaSetLoad} SchemaSetLoad */
/** @typedef {import('./types.js').SchemaSetData} SchemaSetData */
/** @typedef {import('./session.js').Session} Session */

const DESCRIPTOR_ENDINGS = ['.desc', '.binpb', '.pb', '.protoset', '.bin'];
const MAX_PROTO_FILES = 20000;
const MAX_SET_BYTES = 256 * 1024 * 1024;

// What one file's schemas are: its types that need them, and what the workers made of the sets.
class SchemaState extends EventTarget {
  /**
   * @param {string[]} types
   * @param {boolean} embedded
   * @param {'protobuf' | 'ros2msg'} kind protobuf schemas, or ROS 2 .msg definitions
   */
  constructor(types, embedded, kind = 'protobuf') {
    super();
    this.types = types;
    this.embedded = embedded;
    this.kind = kind;
    /** @type {'idle' | 'loading' | 'loaded' | 'error'} */
    this.status = 'idle';
    /** @type {string | null} */
    this.error = null;
    /** @type {SchemaSetLoad[]} */
    this.loads = [];
  }

  changed() { this.dispatchEvent(new Event('change')); }

  // The file's types the loaded sets name.
  get named() {
    const known = new Set(this.loads.filter((l) => l.ok).flatMap((l) => l.types));
    return this.types.filter((t) => known.has(t));
  }
}

// Read the remembered sets now, so that a file's summary finds them read.
storedSchemaSets().catch(() => {});

/** @type {WeakMap<Session, SchemaState>} */
const states = new WeakMap();

// The schema state of a file whose messages can be named (null for others).
/** @type {(session: Session) => SchemaState | null} */
export const schemaState = (session) => states.get(session) ?? null;

// Stored sets that hold one of `types`.
/**
 * @param {StoredSchemaSet[]} sets
 * @param {string[]} types
 */
const matching = (sets, types) => sets.filter((s) => s.types.some((t) => types.includes(t)));

/** @type {(set: StoredSchemaSet) => SchemaSetData} */
const dataOf = (set) => (set.kind === 'descriptors'
  ? { id: set.id, name: set.name, kind: 'descriptors', bytes: set.bytes }
  : { id: set.id, name: set.name, kind: set.kind, files: set.files });

// Sends `sets` to both workers of the file; the view worker's answer says what each gave. Both
// requests are posted at once, so every later request of the views finds them applied.
/**
 * @param {Session} session
 * @param {SchemaState} state
 * @param {SchemaSetData[]} sets
 */
async function apply(session, state, sets) {
  state.status = 'loading';
  state.error = null;
  state.changed();
  session.client.schemaSets = session.jobs.schemaSets = sets;
  const viewAnswer = session.client.call('useSchemas', { sets });
  const jobsAnswer = session.jobs.call('useSchemas', { sets });
  try {
    const [answer] = await session.result(Promise.all([viewAnswer, jobsAnswer]));
    state.loads = answer.loads;
    state.status = 'loaded';
  } catch (error) {
    if (session.aborted) return;
    state.status = 'error';
    state.error = String(/** @type {import('./types.js').ErrorLike} */ (error)?.message || error);
  }
  state.changed();
  return state.loads;
}

// Watches a newly opened file (main.js, before the tabs): once its summary is shown, the
// remembered sets that hold one of its protobuf types are sent to its workers, before the tabs'
// first questions (asked on the same event, after this listener).
/** @param {Session} session */
export function followSchemas(session) {
  session.on('shown', () => {
    const page = session.formatPage, summary = /** @type {import('./types.js').Report} */ (session.summary);
    const definitions = page.messageDefinitions?.(summary) ?? [];
    const types = definitions.length ? definitions : page.messageTypes?.(summary) ?? [];
    const embedded = page.embeddedSchemas?.(summary) ?? false;
    if (!types.length && !embedded) return;
    const state = new SchemaState(types, embedded, definitions.length ? 'ros2msg' : 'protobuf');
    states.set(session, state);
    const start = (/** @type {StoredSchemaSet[]} */ stored) => {
      const sets = types.length ? matching(stored, types) : [];
      if (sets.length || embedded) return apply(session, state, sets.map(dataOf));
      return null;
    };
    const now = storedSchemaSetsNow();
    if (now) start(now);
    else {
      storedSchemaSets().then(async (stored) => {
        if (session.aborted) return;
        const loading = start(stored);
        if (loading && await loading.catch(() => null)) session.emit('schemas');
      }).catch(() => {});
    }
  });
}

// ---- Reading what the user gives -----------------------------------------------------------

// The import root of a folder's .proto files: where the paths their imports name begin
// ("protos/" when protos/bosdyn/api/a.proto imports "bosdyn/api/b.proto"); else the chosen folder.
/** @param {{path: string, text: string}[]} files */
function importRoot(files) {
  /** @type {Map<string, number>} */
  const roots = new Map();
  const paths = files.map((f) => f.path);
  for (const { text } of files) {
    for (const [, imported] of text.matchAll(/^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;/gm)) {
      const holder = paths.find((p) => p === imported || p.endsWith(`/${imported}`));
      if (holder) roots.set(holder.slice(0, holder.length - imported.length), (roots.get(holder.slice(0, holder.length - imported.length)) ?? 0) + 1);
    }
  }
  const best = [...roots].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0];
  if (best) return best[0];
  const first = paths[0]?.split('/') ?? [];
  return first.length > 1 ? `${first[0]}/` : '';
}

/**
 * .proto files (path below what was chosen or dropped) as a set: import paths from its root.
 * @param {{file: File, path: string}[]} items
 * @param {string} name
 * @returns {Promise<import('./types.js').SchemaSetContent>}
 */
async function protoSet(items, name) {
  const protos = items.filter((i) => i.path.endsWith('.proto')).slice(0, MAX_PROTO_FILES);
  if (!protos.length) throw new Error(`${name} holds no .proto file`);
  const total = protos.reduce((sum, i) => sum + i.file.size, 0);
  if (total > MAX_SET_BYTES) throw new Error(`the .proto files of ${name} weigh over 256 MB together`);
  const files = await Promise.all(protos.map(async (i) => ({ path: i.path, text: await i.file.text() })));
  const root = importRoot(files);
  return { name, kind: 'protos', files: files.map((f) => /** @type {[string, string]} */ ([f.path.startsWith(root) ? f.path.slice(root.length) : f.path, f.text])) };
}

/**
 * ROS 2 .msg files as a set, their paths below the folder chosen or dropped (`name`), which name
 * their types as the CLI's --msg-path does (pkg/msg/Type.msg is pkg/msg/Type).
 * @param {{file: File, path: string}[]} items
 * @param {string} name
 * @returns {Promise<import('./types.js').SchemaSetContent>}
 */
async function msgSet(items, name) {
  const msgs = items.filter((i) => i.path.endsWith('.msg')).slice(0, MAX_PROTO_FILES);
  if (!msgs.length) throw new Error(`${name} holds no .msg file`);
  const total = msgs.reduce((sum, i) => sum + i.file.size, 0);
  if (total > MAX_SET_BYTES) throw new Error(`the .msg files of ${name} weigh over 256 MB together`);
  const below = (/** @type {string} */ path) => (path.startsWith(`${name}/`) ? path.slice(name.length + 1) : path);
  return { name, kind: 'msgs', files: await Promise.all(msgs.map(async (i) => /** @type {[string, string]} */ ([below(i.path), await i.file.text()]))) };
}

/**
 * @param {File} file
 * @returns {Promise<import('./types.js').SchemaSetContent>}
 */
async function descriptorSet(file) {
  if (file.size > MAX_SET_BYTES) throw new Error(`${file.name} is over 256 MB: not a descriptor set`);
  return { name: file.name, kind: 'descriptors', bytes: new Uint8Array(await file.arrayBuffer()) };
}

// ---- The panel -----------------------------------------------------------------------------

// How to give schemas: what the card says while a file's types have none.
const howTo = () => h('p.small.muted', { style: 'margin: 4px 0 0' },
  'Give the page their schemas once: a descriptor set (.desc, .binpb, .pb), made with ',
  h('code', {}, 'protoc --descriptor_set_out=robot.desc --include_imports bosdyn/api/robot_state.proto'),
  ', or the folder of .proto files (the Spot SDK\u2019s protos/ folder). This browser remembers it for later files; nothing is uploaded. From the command line: ',
  h('code', {}, '--descriptors FILE'), ' or ', h('code', {}, '--proto-path DIR'), '.');

// The same for a log that stores no ROS 2 message definitions (rosbag2 before Iron).
const msgHowTo = () => h('p.small.muted', { style: 'margin: 4px 0 0' },
  'Give the page their definitions once: the folder of .msg files (a workspace\u2019s src/ or install/share/ folder, or a package\u2019s msg/ folder). This browser remembers it for later bags; nothing is uploaded. From the command line: ',
  h('code', {}, '--msg-path DIR'), '.');

/** @type {(iso: string) => string} */
const dateText = (iso) => { const d = new Date(iso); return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(); };

// The Data view's schema card: what names this file's messages, a way to give schemas, and the
// remembered sets with Forget. Shown only for a file with protobuf messages.
export const schemaView = {
  name: 'schemas',

  /** @param {import('./data-views/common.js').DataViewContext} view */
  render(view) {
    const session = view.session;
    const state = schemaState(session);
    if (!state) return;
    const status = h('div.small.data-note#schema-status', { role: 'status' });
    const error = h('pre.small.error-text#schema-error', { hidden: true, style: 'white-space: pre-wrap; margin: 4px 0 8px' });
    const list = h('div#schema-sets');
    const msgs = state.kind === 'ros2msg';
    const fileInput = /** @type {HTMLInputElement} */ (h('input#schema-file', { type: 'file', accept: DESCRIPTOR_ENDINGS.join(','), hidden: true }));
    const folderInput = /** @type {HTMLInputElement} */ (h('input#schema-folder', { type: 'file', webkitdirectory: true, multiple: true, hidden: true }));
    const zone = h('div.schema-drop#schema-drop', { style: 'border: 1.5px dashed var(--border-strong); border-radius: 8px; padding: 10px 12px; margin: 6px 0 10px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap' },
      h('span.small.muted', {}, msgs ? 'Drop a folder of .msg files here, or' : 'Drop a descriptor set or a folder of .proto files here, or'),
      msgs ? null : h('button.button.small#schema-choose-file', { type: 'button', onclick: () => fileInput.click() }, 'Choose a descriptor set…'),
      h('button.button.small#schema-choose-folder', { type: 'button', onclick: () => folderInput.click() }, msgs ? 'Choose a .msg folder…' : 'Choose a .proto folder…'),
      fileInput, folderInput);
    const card = h('section.card.data-card#schema-card', { dataset: { kind: state.kind } },
      h('div.card-head', {}, h('h3', {}, msgs ? 'ROS 2 message definitions' : 'Protobuf field names'), h('span.muted.small', {}, `${formatCount(state.types.length)} message ${state.types.length === 1 ? 'type' : 'types'} ${msgs ? 'without a stored definition' : 'in this file'}`)),
      status, error, zone, list);
    clear(view.root).append(card);

    /** @param {string | null} text */
    const showError = (text) => { error.hidden = !text; error.textContent = text || ''; };

    const render = async () => {
      const named = state.named;
      const missing = state.types.filter((t) => !named.includes(t));
      card.dataset.state = state.status;
      card.dataset.named = String(named.length);
      clear(status);
      if (state.status === 'loading') status.append(h('span.muted', {}, 'Loading the schemas (the full codec module loads on first use)…'));
      else if (state.status === 'error') status.append(h('span.error-text', {}, `The schemas could not be loaded: ${state.error}`));
      else if (msgs && named.length) {
        status.append(h('span', {}, `Decoded with your definitions: ${named.join(', ')}.`));
        if (missing.length) status.append(h('span.muted', {}, ` Still shown as bytes: ${missing.join(', ')}.`));
      } else if (msgs) {
        status.append(h('strong', {}, 'Decoding needs the message definitions. '), h('span', {}, `This bag stores none for ${state.types.slice(0, 4).join(', ')}${state.types.length > 4 ? ', …' : ''}: their messages are shown as bytes.`), msgHowTo());
      } else if (named.length) {
        status.append(h('span', {}, `Field names, enums by name, nested and repeated fields for ${named.join(', ')}.`));
        if (missing.length) status.append(h('span.muted', {}, ` Still by field number: ${missing.join(', ')}.`));
      } else {
        status.append(h('strong', {}, 'Field names need a schema. '), h('span', {}, `This file\u2019s messages (${state.types.slice(0, 4).join(', ')}${state.types.length > 4 ? ', …' : ''}) are shown, plotted and exported by field number (1.3[2].5).`), howTo());
      }
      const warnings = state.loads.flatMap((l) => l.warnings);
      if (warnings.length && state.status === 'loaded') status.append(h('div.small.tone-warn', { title: warnings.join('\n') }, `${formatCount(warnings.length)} ${warnings.length === 1 ? 'file' : 'files'} did not compile: ${warnings.slice(0, 3).join('; ')}`));
      // This card's kind of sets: a remembered .msg folder means nothing to a protobuf file, and back.
      const stored = (await storedSchemaSets()).filter((set) => (set.kind === 'msgs') === msgs);
      const persist = await schemasPersist();
      const used = new Set(state.loads.filter((l) => l.ok).map((l) => l.id));
      clear(list);
      if (!stored.length) return;
      list.append(h('p.small.muted', {}, persist ? 'Remembered in this browser:' : 'Kept until the page is closed (this browser gives the page no storage):'),
        h('table.data#schema-table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Schemas'), h('th', {}, 'Added'), h('th.num', {}, 'Types'), h('th', {}, 'This file'), h('th', {}, ''))),
          h('tbody', {}, stored.map((set) => h('tr', { dataset: { id: String(set.id) } },
            h('td.mono', { title: set.description }, set.name, h('span.muted', {}, set.kind === 'descriptors' ? ' (descriptor set)' : ` (${formatCount(set.files.length)} ${set.kind === 'msgs' ? '.msg' : '.proto'} files)`)),
            h('td.small', {}, dateText(set.added)),
            h('td.num', {}, formatCount(set.types.length)),
            h('td.small', {}, used.has(set.id) ? 'names it' : set.types.some((t) => state.types.includes(t)) ? 'has its types' : h('span.muted', {}, 'none of its types')),
            h('td', {}, h('button.button.small.schema-forget', { type: 'button', onclick: () => forget(set.id) }, 'Forget')))))));
    };

    // Loads the remembered sets for this file plus `added` (not yet remembered); remembers it if it loads.
    /** @param {import('./types.js').SchemaSetContent} added */
    const add = async (added) => {
      showError(null);
      const stored = await storedSchemaSets();
      const others = matching(stored, state.types).map(dataOf);
      const candidate = /** @type {SchemaSetData} */ ({ ...added, id: -1 });
      const loads = await apply(session, state, [candidate, ...others]);
      const load = loads?.find((l) => l.id === -1);
      if (!load?.ok) {
        showError(load?.error ?? state.error ?? 'the schemas could not be loaded');
        await apply(session, state, others);
        return;
      }
      const kept = await rememberSchemaSet({ ...added, added: new Date().toISOString(), types: load.types, description: load.description });
      load.id = kept.id;
      session.client.schemaSets = session.jobs.schemaSets = [dataOf(kept), ...others];
      if (!load.types.some((t) => state.types.includes(t))) showError(`${added.name} holds none of this file\u2019s types (${state.types.join(', ')}); it is remembered for other files.`);
      session.emit('schemas');
    };
    /** @param {Promise<import('./types.js').SchemaSetContent>} reading */
    const take = (reading) => reading.then(add).catch((e) => showError(String(e?.message || e)));

    /** @param {number} id */
    const forget = async (id) => {
      await forgetSchemaSet(id);
      const stored = await storedSchemaSets();
      await apply(session, state, matching(stored, state.types).map(dataOf));
      session.emit('schemas');
    };

    fileInput.addEventListener('change', () => { const file = fileInput.files?.[0]; fileInput.value = ''; if (file) take(descriptorSet(file)); });
    folderInput.addEventListener('change', () => {
      const items = fromFileList(folderInput.files || []);
      folderInput.value = '';
      const name = items[0]?.path.split('/')[0] || 'folder';
      const files = /** @type {{file: File, path: string}[]} */ (items.filter((i) => i.file));
      if (items.length) take(msgs ? msgSet(files, name) : protoSet(files, name));
    });
    // A drop here is the schemas, not a file to open: it stops before the page's own drop handler.
    zone.addEventListener('dragover', (e) => { e.preventDefault(); e.stopPropagation(); zone.style.background = 'var(--surface-2)'; document.body.classList.remove('dragging'); });
    zone.addEventListener('dragleave', () => { zone.style.background = ''; });
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopPropagation();
      zone.style.background = '';
      // The page counts drags in and out (open.js): this ends its count as its own drop would.
      window.dispatchEvent(new DragEvent('dragleave'));
      const dropped = takeDrop(e.dataTransfer);
      const single = dropped.length === 1 ? dropped[0].file : null;
      if (!msgs && single && !single.name.endsWith('.proto')) return take(descriptorSet(single));
      const name = dropped.length === 1 && dropped[0].entry ? dropped[0].entry.name : `dropped ${msgs ? '.msg' : '.proto'} files`;
      take(collectDrop(dropped).then((items) => {
        const files = /** @type {{file: File, path: string}[]} */ (items.filter((i) => i.file));
        return msgs ? msgSet(files, name) : protoSet(files, name);
      }));
    });
    state.addEventListener('change', () => { render(); }, { signal: session.signal });
    render();
  },
};
