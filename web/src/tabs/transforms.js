// Transforms: the frame tree at a time, whatever the format (views/transforms.js). Built when the
// tab is first shown for a file, since its query reads every transform message once (then it
// answers from the codec's memory).
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import { firstUseView } from './first-use.js';

const loadView = firstUseView(() => import('../views/transforms.js'), 'Transforms');

/** @param {import('../main.js').App} app */
export function transformsTab(app) {
  /** @type {import('../session.js').Session | null} */
  let session = null;
  let ready = false;
  let visible = false;
  /** @type {{stop: () => void} | null} */
  let shown = null;
  const panel = () => /** @type {HTMLElement} */ ($('#panel-tf'));

  async function build() {
    if (!ready || shown || !visible || !session) return;
    const opened = session;
    const module = await loadView(panel());
    if (!module || opened !== session || shown) return;
    const root = clear(panel());
    const view = new DataViewContext(root, opened, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    shown = module.renderTransforms(root, { session: opened, view });
  }

  return {
    name: 'tf',
    label: 'Transforms',

    /** @param {import('../session.js').Session} opened */
    open(opened) {
      shown?.stop();
      session = opened;
      ready = false;
      shown = null;
      clear(panel()).append(h('p.muted', {}, 'Open a log to see its frame tree.'));
      session.on('shown', () => { ready = true; build(); });
    },

    show() { visible = true; build(); },
    hide() { visible = false; },
  };
}
