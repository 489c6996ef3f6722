// ROS bags in the page, beyond the format table: the Data tab's messages, the topics that export,
// extract and plot choose from (the summary's topics table), and the units REP 103 sets for the
// standard message fields (a bag stores none).
import { formatCount } from '../dom.js';
import { tableRows } from './common.js';
import messages from './messages.js';

// REP 103: SI units, angles in radians.
/** @type {[pattern: RegExp, unit: string][]} */
const REP103 = [
  [/(^|\.)linear_acceleration\.[xyz]$/, 'm/s²'],
  [/(^|\.)angular_velocity\.[xyz]$/, 'rad/s'],
  [/(^|\.)(twist\.)?linear\.[xyz]$/, 'm/s'],
  [/(^|\.)(twist\.)?angular\.[xyz]$/, 'rad/s'],
  [/(^|\.)(position|translation|point)\.[xyz]$/, 'm'],
  [/(^|\.)(latitude|longitude)$/, '°'],
  [/(^|\.)altitude$/, 'm'],
  [/(^|\.)(range|ranges\[\d+\]|min_range|max_range)$/, 'm'],
  [/(^|\.)(angle_min|angle_max|angle_increment)$/, 'rad'],
  [/(^|\.)temperature$/, '°C'],
  [/(^|\.)voltage$/, 'V'],
  [/(^|\.)current$/, 'A'],
  [/(^|\.)(secs|time_increment|scan_time)$/, 's'],
  [/(^|\.)nsecs$/, 'ns'],
];

// The summary's topics table as sources.
/** @type {(summary: import('../types.js').Report) => (import('../types.js').FormatSource & {count: number, option: string})[]} */
const topics = (summary) => /** @type {{topic: string, type: string, messages: number}[]} */ (tableRows(summary, 'topics')).map((t) => ({
  key: t.topic, id: t.topic, name: t.topic, label: t.topic, count: t.messages,
  note: `${formatCount(t.messages)} · ${t.type}`, option: `${t.topic} (${formatCount(t.messages)})`,
}));

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [messages],
  sources: topics,
  // Busiest first: the plot looks for a field worth showing from the top.
  plotSources: (summary) => topics(summary).map((t) => ({ ...t, label: t.option })).sort((a, b) => b.count - a.count),
  conventionalUnit(name) {
    const hit = REP103.find(([pattern]) => pattern.test(name));
    return hit ? { unit: hit[1], convention: 'REP 103', why: 'ROS bags store no units: this is the unit REP 103 sets for this field' } : null;
  },
});
