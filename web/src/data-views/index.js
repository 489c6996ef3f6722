// The Data tab's views, in the order they are shown. A view is one module: its name (the
// #panel-data[data-loaded] value once it has loaded), the formats it serves (detection's family)
// and render(view), which builds it into view.root with h() (view: a DataViewContext, common.js).
// A new view: write its module like messages.js and add it here.
import messages from './messages.js';
import carla from './carla.js';
import blocks from './blocks.js';

export const DATA_VIEWS = [messages, carla, blocks];
