// Errors a user can hit, each with a plain message and a next step.
import { h, clear } from './dom.js';

// Shows a banner; actions are [{label, onClick, primary}].
/**
 * @param {HTMLElement} root
 * @param {{tone?: string, title: string, message?: string, actions?: {label: string, onClick: () => void, primary?: boolean}[], id?: string}} banner
 */
export function showBanner(root, { tone = 'bad', title, message, actions = [], id = 'error-banner' }) {
  clear(root).append(h('div.banner', { class: `tone-${tone}`, id, role: 'alert' },
    h('div.banner-text', {}, h('strong', {}, title), message ? h('p', {}, message) : null),
    h('div.banner-actions', {}, actions.map((a) => h(a.primary ? 'button.button.primary' : 'button.button', { type: 'button', onclick: a.onClick }, a.label)),
      h('button.button.ghost', { type: 'button', 'aria-label': 'Dismiss', onclick: () => clear(root) }, '✕'))));
}

/** @type {(root: HTMLElement) => HTMLElement} */
export const hideBanner = (root) => clear(root);

/** @type {{[kind: string]: string}} */
const KIND_TITLE = {
  empty: 'This file is empty',
  html: 'This is a web page, not a log',
  'lfs-pointer': 'This is a Git LFS pointer, not the log',
  gzip: 'This file is gzip-compressed',
  bzip2: 'This file is bzip2-compressed',
  zstd: 'This file is zstd-compressed',
  zip: 'This is a zip archive',
  xz: 'This file is xz-compressed',
  'truncated-header': 'This file is cut off inside its header',
  'unsupported-version': 'Unsupported version',
  text: 'This is a text file, not a log',
};

// The card for a file whose format is not recognised, with detection's diagnosis.
/**
 * @param {HTMLElement} root
 * @param {import('./types.js').Detection} detection
 * @param {{onOpenOther: () => void}} actions
 */
export function renderUnknown(root, detection, { onOpenOther }) {
  clear(root).append(h('section.card.unknown-card', { id: 'unknown-format', dataset: { kind: detection.kind } },
    h('div.card-head', {}, h('h3', {}, KIND_TITLE[detection.kind] || 'Unknown format'), h('span.pill.tone-warn', {}, detection.kind || 'unknown')),
    h('p.diagnosis', { id: 'diagnosis' }, detection.diagnosis || 'logscope does not recognise this file.'),
    detection.first_bytes_hex ? h('p.small', {}, 'First bytes: ', h('code.mono', {}, detection.first_bytes_hex.replace(/(..)/g, '$1 ').trim())) : null,
    h('p.small.muted', {}, 'logscope reads BDDF (Boston Dynamics), ROS bags (V1.1, V1.2, V2.0) and CARLA recorder logs, recognised by content, not by name. The raw bytes are still shown under "Structure & bytes".'),
    h('div.actions', {}, h('button.button.primary', { type: 'button', onclick: onOpenOther }, 'Open another file'))));
}
