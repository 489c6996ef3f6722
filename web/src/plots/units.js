// What a plotted column is measured in. BDDF series and CARLA logs say so (the columns query gives
// the "units" annotation, or CARLA's recorder units); a ROS bag never stores units, so for the
// standard message fields the convention of REP 103 (SI units, angles in radians) is shown, marked
// as such.
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

// {unit, convention}: unit '' when unknown; convention true when it is REP 103's, not the file's.
export function unitOf(column, format) {
  if (column.unit) return { unit: column.unit, convention: false };
  if (format !== 'rosbag') return { unit: '', convention: false };
  const hit = REP103.find(([pattern]) => pattern.test(column.name));
  return { unit: hit ? hit[1] : '', convention: Boolean(hit) };
}

// The value axis' caption for the plotted columns: their unit when they share one.
export function axisCaption(units) {
  const known = [...new Set(units.map((u) => u.unit))];
  if (known.length !== 1 || !known[0]) return '';
  return units.some((u) => u.convention) ? `${known[0]} (REP 103)` : known[0];
}
