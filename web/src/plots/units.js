// What a plotted column is measured in. Where the file says (the columns query gives a BDDF
// "units" annotation, a CARLA log's recorder units), that; else, for a format whose files store
// none, the unit a convention sets for a standard field (a ROS bag's REP 103: the format module's
// conventionalUnit), marked as such.

/** @typedef {{unit: string, convention: string, why: string}} ColumnUnit */

// {unit, convention, why}: unit '' when unknown; convention: the convention's name when the unit is
// its, not the file's; why: what to say about it. conventional(name): the format module's, if any.
/**
 * @param {{name: string, unit?: string}} column
 * @param {((name: string) => import('../types.js').ConventionalUnit | null) | null} [conventional]
 * @returns {ColumnUnit}
 */
export function unitOf(column, conventional = null) {
  if (column.unit) return { unit: column.unit, convention: '', why: '' };
  const hit = conventional?.(column.name);
  return hit ? { unit: hit.unit, convention: hit.convention, why: hit.why || '' } : { unit: '', convention: '', why: '' };
}

// The value axis' caption for the plotted columns: their unit when they share one.
/** @param {ColumnUnit[]} units */
export function axisCaption(units) {
  const known = [...new Set(units.map((u) => u.unit))];
  if (known.length !== 1 || !known[0]) return '';
  const convention = units.find((u) => u.convention)?.convention;
  return convention ? `${known[0]} (${convention})` : known[0];
}
