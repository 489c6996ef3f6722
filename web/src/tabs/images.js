// Images: camera frames at the timeline's cursor, whatever the format (views/images.js); its query
// lists every frame's time once, then reads one frame at a time. The link keeps the first camera's
// frame (image=<topic>@<ns>) and the other cameras' topics (cameras=, links.js).
import { fullViewTab } from './first-use.js';

/** @typedef {ReturnType<typeof import('../views/images.js').renderImages>} ImagesView */

/** @param {import('../main.js').App} app */
export function imagesTab(app) {
  /** @type {{topic: string, t: bigint} | null} */
  let wanted = null; // a link's frame, until the view is built
  /** @type {string[]} */
  let wantedCameras = []; // a link's other cameras, likewise
  /** @type {{topic: string, t: bigint} | null} */
  let current = null;
  /** @type {string[]} */
  let cameras = [];
  const tab = fullViewTab(app, {
    name: 'images', label: 'Images', empty: 'Open a log to see its camera frames.',
    load: () => import('../views/images.js'),
    render: (module, root, context) => {
      const shown = module.renderImages(root, {
        ...context, wanted, cameras: wantedCameras,
        onShown: (topic, t) => { current = { topic, t }; app.links.update({ image: current }); },
        onCameras: (topics) => { cameras = topics; app.links.update({ cameras }); },
      });
      wanted = null;
      wantedCameras = [];
      return shown;
    },
  });
  const built = () => /** @type {ImagesView | null} */ (tab.shown());
  return {
    ...tab,
    /** @param {import('../session.js').Session} opened */
    open(opened) {
      wanted = current = null;
      wantedCameras = cameras = [];
      tab.open(opened);
    },
    // A link's frame and cameras: shown at once if the view is built, else when it is.
    /** @param {import('../links.js').LinkView} view */
    restore(view) {
      if (!view.image && !view.cameras) return;
      const shown = built();
      if (shown) shown.go(view.image ?? null, view.cameras ?? null);
      else {
        wanted = view.image ?? null;
        wantedCameras = view.cameras ?? [];
      }
    },
    // Hidden, the player stops (it would go on moving the timeline's cursor unseen).
    hide() {
      tab.hide();
      built()?.pause();
    },
    view() { return { image: current, cameras }; },
  };
}
