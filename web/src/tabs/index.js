// The tabs, in their order on the page (the first is shown by default). A tab is one module that
// returns {name, label, open(session), show(), hide(), restore(view), view()}: see tab-bar.js.
// A new tab: write its module like problems.js and add it here; index.html may hold its markup.
import { overviewTab } from './overview.js';
import { problemsTab } from './problems.js';
import { dataTab } from './data.js';
import { exploreTab } from './explore.js';
import { extractTab } from './extract.js';
import { plotsTab } from './plots.js';
import { robotLogTab } from './robot-log.js';
import { transformsTab } from './transforms.js';
import { diagnosticsTab } from './diagnostics.js';
import { imagesTab } from './images.js';
import { scansTab } from './scans.js';

export const TABS = [overviewTab, problemsTab, dataTab, robotLogTab, transformsTab, diagnosticsTab, imagesTab, scansTab, plotsTab, exploreTab, extractTab];
