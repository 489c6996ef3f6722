// rosbag2: nothing beyond the format table yet. A single .db3 opens through the codec; a bag
// folder (metadata.yaml and its split files), decoded messages, plots and export in the page are
// the next steps (docs/rosbag2.md, "Not done").
/** @type {import('../types.js').FormatPage} */
export default {};
