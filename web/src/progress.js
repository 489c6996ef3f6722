// The progress bar for long work: bytes done, throughput, time left, and a Cancel button.
import { h, clear, formatBytes, formatDuration } from './dom.js';

/** @typedef {{label: string, started: number, done: number, total: number, opening: boolean}} Task */

export class ProgressBar {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {Task | null} */
    this.active = null;
    // Made by start():
    /** @type {HTMLElement} */
    this.fill;
    /** @type {HTMLElement} */
    this.text;
    /** @type {HTMLButtonElement | null} */
    this.cancelButton;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer;
  }

  // Starts showing progress for a task; returns the onProgress callback for WorkerClient.call.
  /**
   * @param {string} label
   * @param {{onCancel?: () => void, total?: number}} [options]
   * @returns {(done: number, total: number) => void}
   */
  start(label, { onCancel, total = 0 } = {}) {
    const task = { label, started: performance.now(), done: 0, total, opening: false };
    this.active = task;
    this.fill = h('div.progress-fill');
    this.text = h('span.progress-text', {}, 'starting…');
    this.cancelButton = onCancel ? h('button.button.small', { type: 'button', onclick: () => onCancel() }, 'Cancel') : null;
    clear(this.root).append(
      h('span.progress-label', {}, label),
      h('div.progress-track', { role: 'progressbar', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 100 }, this.fill),
      this.text,
      this.cancelButton || '',
    );
    this.root.hidden = false;
    this.root.dataset.state = 'running';
    this.root.dataset.done = '0'; // not the previous task's count
    delete this.root.dataset.phase; // 'opening' (the worker opens the file), then 'pass'
    return (done, total) => this.update(task, done, total);
  }

  /**
   * @param {Task} task
   * @param {number} done
   * @param {number} total
   */
  update(task, done, total) {
    if (task !== this.active) return;
    // A total of 0: the worker is opening the file (reading its index: web/worker.js open), so
    // only the bytes read so far are known. The pass after it is timed from its own start.
    if (total <= 0) {
      task.opening = true;
    } else if (task.opening) {
      task.opening = false;
      task.started = performance.now();
    }
    task.done = done;
    task.total = total;
    const seconds = (performance.now() - task.started) / 1000;
    const rate = seconds > 0.05 ? done / seconds : 0;
    const percent = total > 0 ? Math.min(100, (100 * done) / total) : 0;
    this.fill.style.transform = `scaleX(${percent / 100})`;
    /** @type {Element} */ (this.root.querySelector('.progress-track')).setAttribute('aria-valuenow', String(Math.round(percent)));
    const left = rate > 0 && total > done ? formatDuration((total - done) / rate) + ' left' : '';
    const amount = total > 0 ? `${formatBytes(done)} of ${formatBytes(total)}` : `opening the file: ${formatBytes(done)} read`;
    this.text.textContent = [amount, rate ? `${(rate / 1e6).toFixed(0)} MB/s` : '', left].filter(Boolean).join(' · ');
    this.root.dataset.done = total > 0 ? String(done) : '0';
    this.root.dataset.phase = total > 0 ? 'pass' : 'opening';
  }

  finish(message = '') {
    this.active = null;
    if (!message) {
      this.root.hidden = true;
      this.root.dataset.state = 'idle';
      return;
    }
    this.root.dataset.state = 'finished';
    clear(this.root).append(h('span.progress-label', {}, message));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { if (!this.active) { this.root.hidden = true; this.root.dataset.state = 'idle'; } }, 2500);
  }
}
