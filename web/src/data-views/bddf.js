// BDDF in the page, beyond the format table: the Data tab's blocks, the series that export,
// extract and plot choose from (the summary's series table; only series of plain numbers plot).
import { formatCount } from '../dom.js';
import { tableRows } from './common.js';
import blocks from './blocks.js';

const POD = /^(u?int(8|16|32|64)|float(32|64)|double|float)(\[\d+\])*$/;

// The summary's series table: index, channel, type, blocks...
/** @type {(summary: import('../types.js').Report) => {index: number, channel: string, type: string, blocks: number}[]} */
const series = (summary) => /** @type {{index: number, channel: string, type: string, blocks: number}[]} */ (tableRows(summary, 'series'));

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [blocks],
  sources: (summary) => series(summary).map((s) => ({
    key: String(s.index), id: s.index, name: s.channel, label: `${s.index} · ${s.channel}`,
    note: `${formatCount(s.blocks)} blocks · ${s.type}`, option: `${s.index} · ${s.channel} (${s.type})`,
  })),
  plotSources: (summary) => series(summary).filter((s) => POD.test(String(s.type)))
    .map((s) => ({ key: String(s.index), id: s.index, name: s.channel, label: `${s.channel} · ${s.type}` })),
  plotNote: ' BDDF stores one time per block: the samples of a block share it (they stack at one point in time; "sample" is their place in the block).',
  exportNote: 'Series of plain numbers export a column per value; protobuf series (robot state…) a column per numeric field, named by field number here (1.3[2].5). Names need the schemas: `logscope export FILE --series N --descriptors bosdyn.desc` (or --proto-path DIR) from the command line.',
});
