// Tiny DOM helpers. Strings always become text nodes: nothing from a file is parsed as HTML.
import { formatBytes, formatCount, humanize, plural } from './format.js';

export { formatBytes, formatCount, humanize, plural };

// What h() builds from a tag: 'select.select#data-series' is an HTMLSelectElement, '' a div.
/**
 * @template {string} Tag
 * @typedef {Tag extends `${infer Name}.${string}` ? ElementNamed<Name> : Tag extends `${infer Name}#${string}` ? ElementNamed<Name> : ElementNamed<Tag>} ElementOf
 */
/**
 * @template {string} Name
 * @typedef {Name extends '' ? HTMLDivElement : Name extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[Name] : HTMLElement} ElementNamed
 */
/**
 * h()'s attributes: `on<event>` listeners, `dataset`, `class`, `text`, `style`; anything else is
 * an attribute (true: present, null/undefined/false: absent).
 * @typedef {{[E in keyof HTMLElementEventMap as `on${E}`]?: ((event: HTMLElementEventMap[E]) => unknown) | null}
 *   & {dataset?: {[key: string]: string | number | boolean | null | undefined} | null, [name: string]: unknown}} Attrs
 */
/** A child of h(): nodes, text (numbers as text), nested lists; null, undefined and false are skipped. @typedef {Node | string | number | bigint | boolean | null | undefined | ChildList} Child */
/** @typedef {Child[]} ChildList */

// tag: "name.class1.class2#id" (the id, if any, last).
/**
 * @template {string} Tag
 * @param {Tag} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {ElementOf<Tag>}
 */
export function h(tag, attrs = {}, ...children) {
  const [head, id] = tag.split('#');
  const [name, ...classes] = head.split('.');
  const node = document.createElement(name || 'div');
  if (classes.length) node.className = classes.join(' ');
  if (id) node.id = id;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = [node.className, value].filter(Boolean).join(' ');
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === 'text') node.textContent = /** @type {string} */ (value);
    // Through the CSSOM: the Content-Security-Policy (style-src 'self') refuses style attributes.
    else if (key === 'style') node.style.cssText = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return /** @type {ElementOf<Tag>} */ (node);
}

/**
 * @param {Node} node
 * @param {Child[]} children
 */
function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// The page's own elements (index.html): an HTMLElement, or what the caller's type asks for
// (`/** @type {HTMLInputElement} */ const input = $('#goto-input')`). Absent, it is null, and the
// call that uses it throws, as it always did.
/**
 * @template {Element} [E=HTMLElement]
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {E}
 */
export const $ = (selector, root = document) => /** @type {E} */ (root.querySelector(selector));

/** @param {number} seconds */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const m = Math.floor(seconds / 60), s = Math.round(seconds % 60);
  if (m < 60) return `${m} min ${s} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** @type {(offset: number, width?: number) => string} */
export const hexOffset = (offset, width = 8) => `0x${offset.toString(16).padStart(width, '0')}`;

// Renders a JSON-ish value as compact text.
/** @param {unknown} value */
export function valueText(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? formatCount(value) : String(+value.toPrecision(10));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
