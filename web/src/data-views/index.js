// A format's own page code, one module per format: `data-views/<name>.js`, found by the name in
// the codec's format table (the worker hands the page the open file's entry). Everything the table
// says (labels, endings, operations, source nouns, extract options, texts) the page takes from the
// table; a format module holds only what cannot be data. Each part is optional:
//   views: [view]        the Data tab's views, in order. A view is {name, render(view)}: its name is
//                        the #panel-data[data-loaded] value once loaded; render builds it into
//                        view.root with h() (view: a DataViewContext, common.js). See messages.js.
//   sources(summary)     what export and extract choose from, from the summary's tables:
//                        [{key, id, name, label, note, option}] (key: the <option> value; id: the
//                        query argument; name: a readable name for file names and messages; label
//                        and note: a checkbox's; option: a select's text)
//   extractSources(summary)  what extract chooses from, when it is more than export's sources
//   listSources(run)     for a format whose summary lists none: the sources found by a query
//                        (run(query, args) runs it in the job worker with progress), same items
//   numericSources       sources are whole numbers (the free input is a number field)
//   plotSources(summary) what the plot chooses from ([{key, id, name, label}]); a timeline row's
//                        name plots its source. Without it the plot waits for plotCard's list.
//   plotCard             {id, render(card, {session, view, signal, plot})}: a card between the
//                        timeline and the plot (plot.setSources(list, preferred), plot.pick(key))
//   columnsArgs(source)  the columns query's arguments for a source (default: the plot's)
//   defaultFields(columns), plotNote, exportNote, conventionalUnit(name) -> {unit, convention, why}
// Every format of the table has a module, `export default {}` where it has nothing beyond the table
// (tests/lint/format-modules.test.mjs): a missing one is a failed load (a 404 in the console), after
// which the page goes on without format-specific views, from the table alone.
// The shapes are FormatPage and FormatSource in ../types.js (npm run typecheck checks the modules).
/** @type {Map<string, Promise<import('../types.js').FormatPage>>} */
const loaded = new Map();

// The module of format `name` (the format table's), or {} when it has none.
/**
 * @param {string | null | undefined} name
 * @returns {Promise<import('../types.js').FormatPage>}
 */
export function formatPage(name) {
  if (!name || !/^[a-z0-9_]+$/.test(name) || name === 'index' || name === 'common') return Promise.resolve({});
  let page = loaded.get(name);
  if (!page) loaded.set(name, (page = import(`./${name}.js`).then((module) => module.default || {}, () => ({}))));
  return page;
}
