// The structure tree: expanded lazily, each node's children shown in windows of PAGE rows
// (a million records never become a million DOM nodes). Keyboard: arrows, Enter, Home/End.
import { h, clear, formatBytes, formatCount, hexOffset } from './dom.js';

const PAGE = 200;

/** @typedef {import('./types.js').TreeNode} TreeNode */
/**
 * A node the tree knows: whether it is expanded, the window of its children listed, its depth.
 * (The root, id '', has only child_count.)
 * @typedef {{node: Pick<TreeNode, 'id' | 'label' | 'child_count'> & Partial<TreeNode>, parent?: string, expanded: boolean, first: number, children: string[], depth: number}} Entry
 */

export class TreeView {
  /**
   * @param {HTMLElement} root
   * @param {{client: import('./worker-client.js').WorkerClient | null, onSelect?: (node: TreeNode, options?: {fromHex?: boolean}) => void, kindClass?: (kind: string) => string}} options
   */
  constructor(root, { client, onSelect, kindClass }) {
    this.root = root;
    this.client = /** @type {import('./worker-client.js').WorkerClient} */ (client); // set (setClient) before the tree loads
    this.onSelect = onSelect || (() => {});
    this.kindClass = kindClass || (() => '');
    this.list = h('div.tree', { role: 'tree', tabindex: 0, 'aria-label': 'File structure' });
    this.list.addEventListener('keydown', (e) => this.key(e));
    this.list.addEventListener('click', (e) => this.click(e));
    clear(root).append(this.list);
    // Set by reset() and render():
    /** @type {Map<string, Entry>} */
    this.nodes;
    /** @type {string | null} */
    this.selected;
    /** @type {number | undefined} */
    this.generation;
    /** @type {HTMLElement[] | undefined} */
    this.rows;
    this.reset();
  }

  /** @param {import('./worker-client.js').WorkerClient} client */
  setClient(client) { this.client = client; }

  reset() {
    this.nodes = new Map();
    this.selected = null;
    this.generation = (this.generation || 0) + 1;
    clear(this.list);
  }

  async load() {
    this.reset();
    const generation = this.generation;
    const count = await this.client.call('childCount', { id: '' });
    if (generation !== this.generation) return;
    this.nodes.set('', { node: { id: '', label: 'file', child_count: count }, expanded: true, first: 0, children: [], depth: -1 });
    await this.loadWindow('', 0);
    this.render();
  }

  /**
   * @param {string} id
   * @param {number} first
   */
  async loadWindow(id, first) {
    const entry = /** @type {Entry} */ (this.nodes.get(id)); // asked for a node the tree lists
    const count = entry.node.child_count;
    entry.first = Math.max(0, Math.min(first, Math.max(0, count - 1)));
    entry.first -= entry.first % PAGE;
    const page = await this.client.call('children', { id, first: entry.first, count: Math.min(PAGE, count - entry.first) });
    entry.children = [];
    for (const node of Array.isArray(page) ? page : []) {
      const old = this.nodes.get(node.id);
      this.nodes.set(node.id, { node, parent: id, expanded: old?.expanded || false, first: old?.first || 0, children: old?.children || [], depth: entry.depth + 1 });
      entry.children.push(node.id);
    }
  }

  /**
   * @param {string} id
   * @param {boolean} [open]
   */
  async toggle(id, open = !this.nodes.get(id)?.expanded) {
    const entry = this.nodes.get(id);
    if (!entry || !entry.node.child_count) return;
    // A window that cannot be read (the worker stopped: another file, a crash) leaves the tree as it is.
    if (open && !entry.children.length) {
      try { await this.loadWindow(id, 0); } catch { return; }
    }
    entry.expanded = open;
    this.render();
  }

  async page(id, first) {
    try { await this.loadWindow(id, first); } catch { return; }
    this.render();
  }

  // Expands down a path from the worker's `reveal` ([{id, parent, index}]) and selects its end.
  /** @param {import('./types.js').RevealStep[]} steps */
  async revealPath(steps) {
    for (const step of steps) {
      const parent = this.nodes.get(step.parent);
      if (!parent) return;
      if (!parent.children.includes(step.id)) await this.loadWindow(step.parent, step.index);
      parent.expanded = true;
    }
    this.render();
    if (steps.length) this.select(steps[steps.length - 1].id, { notify: false });
  }

  render() {
    const rows = [];
    /** @type {(id: string) => void} */
    const emit = (id) => {
      const entry = /** @type {Entry} */ (this.nodes.get(id)); // the root and listed children
      const count = entry.node.child_count;
      if (id !== '') rows.push(this.row(entry));
      if (!entry.expanded) return;
      const depth = entry.depth + 1;
      if (entry.first > 0) rows.push(this.pager(id, depth, entry.first - PAGE, `Previous ${PAGE}`, entry));
      for (const child of entry.children) emit(child);
      if (entry.first + entry.children.length < count) rows.push(this.pager(id, depth, entry.first + PAGE, `Next ${Math.min(PAGE, count - entry.first - PAGE)}`, entry));
    };
    if (this.nodes.has('')) emit('');
    if (!rows.length) rows.push(h('div.tree-empty', {}, 'No structure to show.'));
    clear(this.list).append(...rows);
    this.rows = [...this.list.querySelectorAll(/** @type {'div'} */ ('.tree-row'))];
    const current = this.selected && this.list.querySelector(`.tree-row[data-id="${CSS.escape(this.selected)}"]`);
    if (current) current.setAttribute('aria-selected', 'true');
  }

  /** @param {Entry} entry */
  row(entry) {
    const { node } = entry;
    const leaf = !node.child_count;
    return h('div.tree-row', {
      role: 'treeitem', 'aria-level': entry.depth + 1, 'aria-expanded': leaf ? null : String(entry.expanded),
      dataset: { id: node.id }, style: `--depth:${entry.depth}`,
    },
    h('span.tree-caret', { 'aria-hidden': 'true' }, leaf ? '' : entry.expanded ? '▾' : '▸'),
    h('span.tree-kind', { class: this.kindClass(/** @type {string} */ (node.kind)), title: node.kind }),
    h('span.tree-label', {}, node.label),
    node.child_count ? h('span.tree-count', {}, formatCount(node.child_count)) : null,
    h('span.tree-meta', { title: `${node.offset} +${node.length}` }, `${hexOffset(/** @type {number} */ (node.offset))} · ${formatBytes(/** @type {number} */ (node.length))}`));
  }

  /**
   * @param {string} id
   * @param {number} depth
   * @param {number} first
   * @param {string} text
   * @param {Entry} entry
   */
  pager(id, depth, first, text, entry) {
    const count = entry.node.child_count;
    return h('div.tree-pager', { style: `--depth:${depth}`, dataset: { parent: id, first } },
      h('button.link', { type: 'button' }, text),
      h('span.tree-meta', {}, `showing ${formatCount(entry.first + 1)}–${formatCount(entry.first + entry.children.length)} of ${formatCount(count)}`));
  }

  /**
   * @param {string} id
   * @param {{notify?: boolean}} [options]
   */
  select(id, { notify = true } = {}) {
    this.selected = id;
    for (const row of this.list.querySelectorAll('[aria-selected="true"]')) row.removeAttribute('aria-selected');
    const row = this.list.querySelector(`.tree-row[data-id="${CSS.escape(id)}"]`);
    if (row) {
      row.setAttribute('aria-selected', 'true');
      row.scrollIntoView({ block: 'nearest' });
    }
    const entry = this.nodes.get(id);
    // (Only listed nodes are selected: they are whole TreeNodes.)
    if (entry && notify) this.onSelect(/** @type {TreeNode} */ (entry.node));
    if (entry && !notify) this.onSelect(/** @type {TreeNode} */ (entry.node), { fromHex: true });
  }

  /** @param {MouseEvent} event */
  click(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const pager = target.closest(/** @type {'div'} */ ('.tree-pager'));
    if (pager) return this.page(/** @type {string} */ (pager.dataset.parent), Number(pager.dataset.first));
    const row = target.closest(/** @type {'div'} */ ('.tree-row'));
    if (!row) return;
    const id = /** @type {string} */ (row.dataset.id);
    if (target.classList.contains('tree-caret')) this.toggle(id);
    else { this.select(id); if (event.detail === 2) this.toggle(id); }
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const rows = this.rows || [];
    if (!rows.length) return;
    const index = rows.findIndex((r) => r.dataset.id === this.selected);
    const selected = /** @type {string} */ (this.selected); // used when a node is selected (entry)
    const entry = this.nodes.get(selected);
    /** @type {(i: number) => void} */
    const go = (i) => { const r = rows[Math.max(0, Math.min(rows.length - 1, i))]; if (r) this.select(/** @type {string} */ (r.dataset.id)); };
    switch (event.key) {
      case 'ArrowDown': go(index + 1); break;
      case 'ArrowUp': go(index < 0 ? 0 : index - 1); break;
      case 'Home': go(0); break;
      case 'End': go(rows.length - 1); break;
      case 'ArrowRight':
        if (entry?.node.child_count && !entry.expanded) this.toggle(selected, true);
        else if (entry?.expanded && entry.children.length) this.select(entry.children[0]);
        break;
      case 'ArrowLeft':
        if (entry?.expanded) this.toggle(selected, false);
        else if (entry?.parent) this.select(entry.parent);
        break;
      case 'Enter': case ' ':
        if (entry) this.toggle(selected);
        break;
      default: return;
    }
    event.preventDefault();
  }
}
