// Images: camera frames at the timeline's cursor, whatever the format (views/images.js); its query
// lists every frame's time once, then reads one frame at a time. The frame shown is kept in the
// link (image=<topic>@<ns>, links.js).
import { fullViewTab } from './first-use.js';

/** @param {import('../main.js').App} app */
export function imagesTab(app) {
  /** @type {{topic: string, t: bigint} | null} */
  let wanted = null; // a link's frame, until the view is built
  /** @type {{topic: string, t: bigint} | null} */
  let current = null;
  const tab = fullViewTab(app, {
    name: 'images', label: 'Images', empty: 'Open a log to see its camera frames.',
    load: () => import('../views/images.js'),
    render: (module, root, context) => {
      const shown = module.renderImages(root, {
        ...context, wanted,
        onShown: (topic, t) => { current = { topic, t }; app.links.update({ image: current }); },
      });
      wanted = null;
      return shown;
    },
  });
  return {
    ...tab,
    /** @param {import('../session.js').Session} opened */
    open(opened) {
      wanted = current = null;
      tab.open(opened);
    },
    // A link's frame: shown at once if the view is built, else when it is.
    /** @param {import('../links.js').LinkView} view */
    restore(view) {
      if (!view.image) return;
      const shown = /** @type {ReturnType<typeof import('../views/images.js').renderImages> | null} */ (tab.shown());
      if (shown) shown.go(view.image);
      else wanted = view.image;
    },
    view() { return { image: current }; },
  };
}
