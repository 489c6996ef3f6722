// Scans: laser scans and point clouds at a time, whatever the format (views/scans.js); its first
// query walks the scan topics once for their times, then each scan is read alone.
import { fullViewTab } from './first-use.js';

/** @param {import('../main.js').App} app */
export const scansTab = (app) => fullViewTab(app, {
  name: 'scans', label: 'Scans', empty: 'Open a log to see its scans and point clouds.',
  load: () => import('../views/scans.js'),
  render: (module, root, context) => module.renderScans(root, context),
});
