// BDDF in the page, beyond the format table: the Data tab's blocks, the series that export,
// extract and plot choose from (the summary's series table): series of plain numbers, and
// protobuf series (robot state…), whose numeric fields plot by path, by name once the user gave
// their schemas (../schemas.js), by field number before.
import { formatCount } from '../dom.js';
import { tableRows } from './common.js';
import { schemaView } from '../schemas.js';
import blocks from './blocks.js';

const POD = /^(u?int(8|16|32|64)|float(32|64)|double|float)(\[\d+\])*$/;
// A message series' type: a protobuf full name ("bosdyn.api.RobotState"); other content types
// have a slash ("text/plain").
const MESSAGE = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

// The summary's series table: index, channel, type, blocks...
/** @type {(summary: import('../types.js').Report) => {index: number, channel: string, type: string, blocks: number}[]} */
const series = (summary) => /** @type {{index: number, channel: string, type: string, blocks: number}[]} */ (tableRows(summary, 'series'));
/** @type {(type: string) => boolean} */
const isMessage = (type) => !POD.test(type) && MESSAGE.test(type);

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [schemaView, blocks],
  sources: (summary) => series(summary).map((s) => ({
    key: String(s.index), id: s.index, name: s.channel, label: `${s.index} · ${s.channel}`,
    note: `${formatCount(s.blocks)} blocks · ${s.type}`, option: `${s.index} · ${s.channel} (${s.type})`,
  })),
  plotSources: (summary) => series(summary).filter((s) => POD.test(String(s.type)) || isMessage(String(s.type)))
    .map((s) => ({ key: String(s.index), id: s.index, name: s.channel, label: `${s.channel} · ${s.type}`, message: isMessage(String(s.type)) })),
  messageTypes: (summary) => [...new Set(series(summary).map((s) => String(s.type)).filter(isMessage))],
  // A protobuf series' columns are the paths its messages hold: every message is read for them.
  slowColumns: (source) => Boolean(source.message),
  plotNote: ' BDDF stores one time per block: the samples of a block share it (they stack at one point in time; "sample" is their place in the block).',
  exportNote: 'Series of plain numbers export a column per value; protobuf series (robot state…) a column per numeric field, by name with the schemas given in the Data tab (kinematic_state.joint_states[3].position.value), else by field number (1.3[2].5). From the command line: `logscope export FILE --series N --descriptors bosdyn.desc` (or --proto-path DIR).',
});
