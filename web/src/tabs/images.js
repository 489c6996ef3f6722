// Images: camera frames at the timeline's cursor, whatever the format (views/images.js). Built when
// the tab is first shown for a file, since its query lists every frame's time once (then it reads
// one frame at a time). The frame shown is kept in the link (image=<topic>@<ns>, links.js).
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import { firstUseView } from './first-use.js';

const loadView = firstUseView(() => import('../views/images.js'), 'Images');

/** @param {import('../main.js').App} app */
export function imagesTab(app) {
  /** @type {import('../session.js').Session | null} */
  let session = null;
  let ready = false;
  let visible = false;
  /** @type {ReturnType<import('../views/images.js').renderImages> | null} */
  let shown = null;
  /** @type {{topic: string, t: bigint} | null} */
  let wanted = null; // a link's frame, until the view is built
  /** @type {{topic: string, t: bigint} | null} */
  let current = null;
  const panel = () => /** @type {HTMLElement} */ ($('#panel-images'));

  async function build() {
    if (!ready || shown || !visible || !session) return;
    const opened = session;
    const module = await loadView(panel());
    if (!module || opened !== session || shown) return;
    const root = clear(panel());
    const view = new DataViewContext(root, opened, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    shown = module.renderImages(root, {
      session: opened, view, wanted,
      onShown: (topic, t) => { current = { topic, t }; app.links.update({ image: current }); },
    });
    wanted = null;
  }

  return {
    name: 'images',
    label: 'Images',

    /** @param {import('../session.js').Session} opened */
    open(opened) {
      shown?.stop();
      session = opened;
      ready = false;
      shown = null;
      wanted = current = null;
      clear(panel()).append(h('p.muted', {}, 'Open a log to see its camera frames.'));
      session.on('shown', () => { ready = true; build(); });
    },

    show() { visible = true; build(); },
    hide() { visible = false; },

    // A link's frame: shown at once if the view is built, else when it is.
    /** @param {import('../links.js').LinkView} view */
    restore(view) {
      if (!view.image) return;
      if (shown) shown.go(view.image);
      else wanted = view.image;
    },

    view() { return { image: current }; },
  };
}
