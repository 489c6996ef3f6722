// Scans: laser scans and point clouds at a time, whatever the format (views/scans.js). Built when the
// tab is first shown for a file, since its first query walks the scan topics once for their times (then
// each scan is read alone).
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import { firstUseView } from './first-use.js';

const loadView = firstUseView(() => import('../views/scans.js'), 'Scans');

/** @param {import('../main.js').App} app */
export function scansTab(app) {
  /** @type {import('../session.js').Session | null} */
  let session = null;
  let ready = false;
  let visible = false;
  /** @type {{stop: () => void} | null} */
  let shown = null;
  const panel = () => /** @type {HTMLElement} */ ($('#panel-scans'));

  async function build() {
    if (!ready || shown || !visible || !session) return;
    const opened = session;
    const module = await loadView(panel());
    if (!module || opened !== session || shown) return;
    const root = clear(panel());
    const view = new DataViewContext(root, opened, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    shown = module.renderScans(root, { session: opened, view });
  }

  return {
    name: 'scans',
    label: 'Scans',

    /** @param {import('../session.js').Session} opened */
    open(opened) {
      shown?.stop();
      session = opened;
      ready = false;
      shown = null;
      clear(panel()).append(h('p.muted', {}, 'Open a log to see its scans and point clouds.'));
      session.on('shown', () => { ready = true; build(); });
    },

    show() { visible = true; build(); },
    hide() { visible = false; },
  };
}
