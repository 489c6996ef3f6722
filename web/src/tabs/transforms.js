// Transforms: the frame tree at a time, whatever the format (views/transforms.js); its query reads
// every transform message once, then answers from the codec's memory.
import { fullViewTab } from './first-use.js';

/** @param {import('../main.js').App} app */
export const transformsTab = (app) => fullViewTab(app, {
  name: 'tf', label: 'Transforms', empty: 'Open a log to see its frame tree.',
  load: () => import('../views/transforms.js'),
  render: (module, root, context) => module.renderTransforms(root, context),
});
