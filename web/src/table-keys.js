// Table rows from the keyboard, for every data table of the page (Overview and Data): Tab reaches
// a table's current row (one tab stop per table), ↑ ↓ Home End PageUp PageDown move between rows,
// Enter or Space opens the row as a click does (select a series, expand a message...).
const ROWS = 'tbody > tr:not(.detail)';
const PAGE = 10;

// Gives the first row of each data table under `root` the table's tab stop, when none has it yet.
/** @param {HTMLElement} root */
function ensureStops(root) {
  for (const tbody of root.querySelectorAll('table.data > tbody')) {
    const rows = tbody.querySelectorAll(/** @type {'tr'} */ (':scope > tr:not(.detail)'));
    if (rows.length && !tbody.querySelector(':scope > tr[tabindex="0"]')) rows[0].tabIndex = 0;
  }
}

/**
 * @param {HTMLElement} from
 * @param {HTMLElement | undefined} to
 */
function move(from, to) {
  if (!to || to === from) return;
  from.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
  to.scrollIntoView({ block: 'nearest' });
}

/** @param {HTMLElement} [root] */
export function startTableKeys(root = document.body) {
  new MutationObserver(() => ensureStops(root)).observe(root, { childList: true, subtree: true });
  ensureStops(root);
  root.addEventListener('keydown', (event) => {
    const row = /** @type {HTMLTableRowElement | null | undefined} */ (/** @type {Element} */ (event.target).closest?.(`table.data ${ROWS}`));
    if (!row || event.target !== row || event.altKey || event.ctrlKey || event.metaKey) return;
    const rows = [.../** @type {HTMLElement} */ (row.parentElement).querySelectorAll(/** @type {'tr'} */ (`:scope > tr:not(.detail)`))];
    const at = rows.indexOf(row);
    /** @type {{[key: string]: number}} */
    const keys = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1, PageDown: at + PAGE, PageUp: at - PAGE };
    const to = keys[event.key];
    if (to !== undefined) {
      event.preventDefault();
      move(row, rows[Math.max(0, Math.min(rows.length - 1, to))]);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      row.click();
    }
  });
}
