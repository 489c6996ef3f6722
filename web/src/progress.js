// The progress bar for long work: bytes done, throughput, time left, and a Cancel button.
import { h, clear, formatBytes, formatDuration } from './dom.js';

// One bar shows the latest task. A task started while another of the same worker runs waits
// behind it there (the job worker answers one request at a time): its bar says so, with the
// earlier task's progress, until its own begins. A task ended by its own callback (finish's
// `onProgress`) leaves a later task's bar alone.
/** @typedef {{label: string, first: {time: number, done: number} | null, done: number, total: number, opening: boolean, queue: string, after: Task | null}} Task */
// (`first`: the current pass's first report, null until the task's own progress begins.)

export class ProgressBar {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {Task | null} */
    this.active = null;
    /** @type {Task[]} started and not finished, oldest first */
    this.running = [];
    /** @type {WeakMap<Function, Task>} each task by the callback start() gave */
    this.tasks = new WeakMap();
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
   * @param {{onCancel?: () => void, total?: number, queue?: string}} [options] queue: the worker
   *   that runs it ('jobs'), when its tasks run one after another
   * @returns {(done: number, total: number) => void}
   */
  start(label, { onCancel, total = 0, queue = '' } = {}) {
    const after = (queue && this.running.findLast((t) => t.queue === queue)) || null;
    /** @type {Task} */
    const task = { label, first: null, done: 0, total, opening: false, queue, after };
    this.active = task;
    this.running.push(task);
    this.fill = h('div.progress-fill');
    this.text = h('span.progress-text', {}, after ? waitingText(after) : 'starting…');
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
    if (after) this.root.dataset.phase = 'waiting';
    /** @param {number} done @param {number} total */
    const onProgress = (done, total) => this.update(task, done, total);
    this.tasks.set(onProgress, task);
    return onProgress;
  }

  /**
   * @param {Task} task
   * @param {number} done
   * @param {number} total
   */
  update(task, done, total) {
    if (task !== this.active) {
      task.done = done;
      task.total = total;
      if (this.active?.after === task && !this.active.first) this.text.textContent = waitingText(task);
      return;
    }
    // A total of 0: the worker is opening the file (reading its index: web/worker.js open), so
    // only the bytes read so far are known. The pass after it is timed from its own start, and so
    // is a pass that starts over (a CARLA query scans the log's frames, then reads it again).
    // The rate counts from a pass's first report: before it, a remote file's first request
    // brought a few header bytes in its round trip, which made "186 h left" of a 24 MiB log.
    const now = performance.now();
    if (total <= 0) {
      task.opening = true;
    } else if (task.opening || done < task.done) {
      task.opening = false;
      task.first = null;
    }
    if (!task.first) task.first = { time: now, done };
    task.done = done;
    task.total = total;
    const seconds = (now - task.first.time) / 1000;
    const rate = seconds > 0.05 && done > task.first.done ? (done - task.first.done) / seconds : 0;
    const percent = total > 0 ? Math.min(100, (100 * done) / total) : 0;
    this.fill.style.transform = `scaleX(${percent / 100})`;
    /** @type {Element} */ (this.root.querySelector('.progress-track')).setAttribute('aria-valuenow', String(Math.round(percent)));
    const left = rate > 0 && total > done ? formatDuration((total - done) / rate) + ' left' : '';
    const amount = total > 0 ? `${formatBytes(done)} of ${formatBytes(total)}` : `opening the file: ${formatBytes(done)} read`;
    this.text.textContent = [amount, rate ? `${(rate / 1e6).toFixed(0)} MB/s` : '', left].filter(Boolean).join(' · ');
    this.root.dataset.done = total > 0 ? String(done) : '0';
    this.root.dataset.phase = total > 0 ? 'pass' : 'opening';
  }

  // Ends the task whose callback is `onProgress` (else the shown one, and any before it): a task
  // that is not shown ends unseen.
  /**
   * @param {string} [message]
   * @param {(done: number, total: number) => void} [onProgress]
   */
  finish(message = '', onProgress) {
    const task = onProgress && this.tasks.get(onProgress);
    if (task && task !== this.active) {
      this.running = this.running.filter((t) => t !== task);
      const waiting = this.active;
      if (waiting?.after === task && !waiting.first) {
        waiting.after = null;
        this.text.textContent = 'starting…';
        delete this.root.dataset.phase;
      }
      return;
    }
    this.running = task ? this.running.filter((t) => t !== task) : [];
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

/** @param {Task} task */
function waitingText(task) {
  const amount = task.total > 0 ? `: ${formatBytes(task.done)} of ${formatBytes(task.total)}` : '';
  return `waiting for “${task.label}” to finish${amount}…`;
}
