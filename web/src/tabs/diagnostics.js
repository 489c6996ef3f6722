// Diagnostics: each component's levels over time and its status at a time, whatever the format
// (views/diagnostics.js); its query reads every diagnostics message once, keeping runs of levels.
import { fullViewTab } from './first-use.js';

/** @param {import('../main.js').App} app */
export const diagnosticsTab = (app) => fullViewTab(app, {
  name: 'diag', label: 'Diagnostics', empty: 'Open a log to see its diagnostics.',
  load: () => import('../views/diagnostics.js'),
  render: (module, root, context) => module.renderDiagnostics(root, context),
});
