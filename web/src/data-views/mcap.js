// MCAP: nothing beyond the format table yet. The Overview, Problems, Structure & bytes and the
// batch table come from the codec alone; decoded messages per channel, plots and export are the
// next steps (docs/mcap.md, "Not done").
/** @type {import('../types.js').FormatPage} */
export default {};
