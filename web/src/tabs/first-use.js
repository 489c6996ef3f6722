// Tabs whose view is fetched on first use (Transforms, Scans, Images, Diagnostics, Robot log): the
// view's module says so with @logscope-first-use, and build-dist.mjs leaves it out
// of what the service worker caches at install (the first visit), as it does the full module.
// Such a tab is built when first shown for a file, since its first query walks the view's topics.
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';

/**
 * @template M
 * @param {() => Promise<M>} load the view's module (a dynamic import)
 * @param {string} what the view's name, for a failed load
 * @returns {(panel: HTMLElement) => Promise<M | null>} the module; null, said in the panel, when it did not load
 */
export function firstUseView(load, what) {
  /** @type {Promise<M> | null} */
  let loading = null;
  return async (panel) => {
    loading ??= load();
    try {
      return await loading;
    } catch (error) {
      loading = null; // the next showing tries again (the network may be back)
      clear(panel).append(h('p.error', {}, `The ${what} view could not be loaded: ${/** @type {Error} */ (error)?.message || error}`));
      return null;
    }
  };
}

/**
 * A tab of such a view: the view's module, and how to render it into the tab's panel.
 * @template M
 * @template {{stop: () => void}} S
 * @param {import('../main.js').App} app
 * @param {{name: string, label: string, empty: string, load: () => Promise<M>,
 *   render: (module: M, root: HTMLElement, context: {session: import('../session.js').Session, view: DataViewContext}) => S}} spec
 * @returns {{name: string, label: string, open: (opened: import('../session.js').Session) => void, show: () => void, hide: () => void, shown: () => S | null}}
 */
export function fullViewTab(app, { name, label, empty, load, render }) {
  const loadView = firstUseView(load, label);
  /** @type {import('../session.js').Session | null} */
  let session = null;
  let ready = false;
  let visible = false;
  /** @type {S | null} */
  let shown = null;
  const panel = () => /** @type {HTMLElement} */ ($(`#panel-${name}`));

  async function build() {
    if (!ready || shown || !visible || !session) return;
    const opened = session;
    const module = await loadView(panel());
    if (!module || opened !== session || shown) return;
    const root = clear(panel());
    const view = new DataViewContext(root, opened, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    shown = render(module, root, { session: opened, view });
  }

  return {
    name,
    label,
    open(opened) {
      shown?.stop();
      session = opened;
      ready = false;
      shown = null;
      clear(panel()).append(h('p.muted', {}, empty));
      session.on('shown', () => { ready = true; build(); });
      // New protobuf schemas (schemas.js) can give the view topics it could not read: built again.
      session.on('schemas', () => {
        if (!shown) return;
        shown.stop();
        shown = null;
        clear(panel()).append(h('p.muted', {}, empty));
        build();
      });
    },
    show() { visible = true; build(); },
    hide() { visible = false; },
    shown: () => shown,
  };
}
