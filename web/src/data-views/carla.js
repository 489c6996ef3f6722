// CARLA recorder logs in the page, beyond the format table: the Data tab's view (collisions as
// they start, like show_recorder_collisions, and one row per actor life; a frame button jumps to
// the frame's bytes), the actors that export and extract choose from (the actors query: the
// summary lists none), and the map of actors on the Timeline & plots tab, whose pass lists the
// actors the plot chooses from.
import { h, clear, formatCount } from '../dom.js';
import { formatAt, unitAt, isNumericUnit, humanize } from '../format.js';
import { td } from './common.js';
import { renderActorMap } from '../plots/actor-map.js';

/** @typedef {import('./common.js').DataViewContext} DataViewContext */

/** @type {{[code: string]: string}} */
const TYPES = { h: 'hero', v: 'vehicle', w: 'walker', t: 'traffic light', o: 'other', a: 'any' };
/** @type {(keyof import('../types.js').CarlaActor)[]} */
const ACTOR_COLUMNS = ['id', 'type', 'blueprint', 'role_name', 'spawn_frame', 'spawn_time', 'destroy_frame', 'parent', 'positions'];

// Frame id -> {offset, length} through the in-memory frame index (view worker, no file reads).
/**
 * @param {import('./common.js').DataViewContext} view
 * @param {number} id
 */
async function frameAt(view, id) {
  const client = view.viewClient;
  let page = /** @type {import('../types.js').FramesResult} */ (await client.call('query', { name: 'frames', args: { first: Math.max(0, id - 1), count: 1 } }));
  /** @type {import('../types.js').CarlaFrame | undefined} */
  let frame = page.frames?.[0];
  if (frame?.id !== id) {
    page = /** @type {import('../types.js').FramesResult} */ (await client.call('query', { name: 'frames', args: { first: 0, count: page.total || 1e6 } }));
    frame = (page.frames || []).find((f) => f.id === id);
  }
  return frame || null;
}

/**
 * @param {DataViewContext} view
 * @param {number} frameId
 */
function frameButton(view, frameId) {
  if (!Number.isFinite(frameId)) return h('span.muted', {}, '—');
  return h('button.link.mono.jump', { type: 'button', title: `Show frame ${frameId} in the hex view`, dataset: { frame: frameId }, onclick: async (e) => {
    e.stopPropagation();
    const frame = await frameAt(view, frameId).catch(() => null);
    if (frame) view.jumpTo(frame.offset, frame.length);
  } }, `frame ${frameId} ›`);
}

// One side of a collision: its id (already in its unit), blueprint, hero mark and category.
/** @type {(id: string | null, name: string, hero: boolean, type: string) => HTMLTableCellElement} */
const actorCell = (id, name, hero, type) => h('td', {}, id === '—' ? h('span.muted', {}, 'no actor') : [h('span.mono', {}, id), ' ', name],
  hero ? h('span.pill.tone-info.hero', {}, 'hero') : null, type ? h('span.muted.small', {}, ` · ${TYPES[type] || type}`) : null);

/** @type {import('../types.js').DataView} */
const actorsView = {
  name: 'carla',

  /** @param {DataViewContext} view */
  async render(view) {
    const collisions = h('section.card.data-card#data-collisions', {}, h('div.card-head', {}, h('h3', {}, 'Collisions'), h('span.muted.small', {}, 'as they start, like show_recorder_collisions')), h('p.muted.small', {}, 'Reading…'));
    const actors = h('section.card.data-card#data-actors', {}, h('div.card-head', {}, h('h3', {}, 'Actors'), h('span.muted.small', {}, 'one row per actor life')), h('p.muted.small', {}, 'Waiting…'));
    clear(view.root).append(collisions, actors);
    const again = () => this.render(view);
    try {
      const result = /** @type {import('../types.js').CollisionsResult} */ (await view.run('Finding collisions', 'collisions', {}));
      if (result.error) throw new Error(result.error);
      const list = result.collisions || [];
      /** @type {(o: {[key: string]: number | null}) => {[key: string]: number}} */
      const defined = (o) => Object.fromEntries(Object.entries(o).filter(/** @returns {e is [string, number]} */ (e) => e[1] !== null && e[1] !== undefined));
      /** @type {(c: import('../types.js').Collision, name: keyof import('../types.js').Collision) => import('../format.js').Formatted} */
      const field = (c, name) => formatAt(result, `collisions.${name}`, c[name]);
      const tbody = h('tbody', {}, list.map((c) => h('tr', { dataset: defined({ frame: c.frame, id1: c.id1, id2: c.id2 }) },
        td(field(c, 'frame').text, { num: true }), td(field(c, 'time').text, { num: true, title: field(c, 'time').title }),
        actorCell(field(c, 'id1').text, c.actor1, c.hero1, c.type1), actorCell(field(c, 'id2').text, c.actor2, c.hero2, c.type2), h('td', {}, frameButton(view, c.frame)))));
      clear(collisions).append(h('div.card-head', {}, h('h3', {}, 'Collisions'), h('span.muted.small', {}, `${formatCount(list.length)} in ${formatAt(result, 'frames', result.frames ?? 0).text} frames (${formatAt(result, 'duration', result.duration).text})`)),
        list.length ? h('div.table-wrap.data-wrap', {}, h('table.data.data-table#collisions-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, 'Frame'), h('th.num', {}, 'Time'), h('th', {}, 'Actor 1'), h('th', {}, 'Actor 2'), h('th', {}, 'Bytes'))), tbody))
          : h('p.muted#no-collisions', {}, 'No collisions were recorded in this log.'));
    } catch (error) {
      view.status(/** @type {HTMLElement} */ (collisions.lastChild), error, again);
    }
    try {
      const result = /** @type {import('../types.js').ActorsResult} */ (await view.run('Reading actors', 'actors', {}));
      if (result.error) throw new Error(result.error);
      const list = result.actors || [];
      /** @type {(column: string) => boolean} */
      const numeric = (c) => isNumericUnit(unitAt(result, `actors.${c}`));
      const tbody = h('tbody');
      for (const a of list) {
        const row = h('tr', { dataset: { id: a.id } }, ACTOR_COLUMNS.map((c) => {
          const { text, title } = formatAt(result, `actors.${c}`, a[c]);
          return td(text, { num: numeric(c), title });
        }), h('td', {}, frameButton(view, a.spawn_frame)));
        tbody.append(row);
        view.expandable(tbody, row, ACTOR_COLUMNS.length + 1, async () => a, { units: result.units, path: 'actors' });
      }
      clear(actors).append(h('div.card-head', {}, h('h3', {}, 'Actors'), h('span.muted.small', {}, `${formatCount(list.length)} actor lives; click a row for its attributes`)),
        h('div.table-wrap.data-wrap', {}, h('table.data.data-table#actors-table', {}, h('thead', {}, h('tr', {}, ACTOR_COLUMNS.map((c) => h(numeric(c) ? 'th.num' : 'th', {}, humanize(c))), h('th', {}, 'Spawn bytes'))), tbody)));
      view.loaded();
    } catch (error) {
      view.status(/** @type {HTMLElement} */ (actors.lastChild), error, again);
    }
  },
};

// The actors of the map's pass as plot sources: vehicles first, then walkers, the hero first
// among equals; one entry per id (an id reused after a destroy plots all its lives).
/**
 * @param {import('../types.js').ActorPath[]} actors
 * @returns {import('../types.js').FormatSource[]}
 */
function actorSources(actors) {
  /** @type {{[type: string]: number}} */
  const rank = { vehicle: 0, walker: 1 };
  const list = actors.filter((a) => a.f.length > 0)
    .sort((a, b) => (rank[a.type] ?? 2) - (rank[b.type] ?? 2) || Number(b.role_name === 'hero') - Number(a.role_name === 'hero') || a.id - b.id)
    .map((a) => ({ key: String(a.id), id: a.id, label: `${a.id} · ${a.type} · ${a.blueprint}${a.role_name ? ` (${a.role_name})` : ''}` }));
  return [...new Map(list.map((s) => [s.key, s])).values()];
}

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [actorsView],
  // The actors, from a pass over the log (the summary has no table of them): one entry per id.
  async listSources(run) {
    const answer = /** @type {import('../types.js').ActorsResult} */ (await run('actors', {}));
    if (answer.error) throw new Error(answer.error);
    const items = (answer.actors || []).map((a) => ({ key: String(a.id), id: a.id, label: `${a.id} · ${a.blueprint || a.type || ''}`, note: `${a.type}${a.role_name ? ` (${a.role_name})` : ''}` }));
    return [...new Map(items.map((item) => [item.key, item])).values()];
  },
  numericSources: true,
  // Every actor has the same columns: the query takes no actor.
  columnsArgs: () => ({}),
  defaultFields(columns) {
    const names = columns.filter((c) => c.kind === 'number' || c.kind === 'bool').map((c) => c.name);
    return names.includes('speed') ? ['speed'] : ['x', 'y'].filter((n) => names.includes(n));
  },
  plotCard: {
    id: 'map-card',
    render: (card, { session, view, signal, plot }) => renderActorMap(card, { session, view, signal, onActors: (actors) => plot.setSources(actorSources(actors)), onPick: (id) => plot.pick(id) }),
  },
});
