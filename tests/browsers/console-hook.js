// Installed by the cross-browser suite's server before the page's own script (tests/browsers/
// driver.mjs): collects what would be a console error, for engines whose driver cannot read the
// console (WebKitWebDriver). Uncaught errors, unhandled rejections, console.error, and the error
// events of the page's workers (an uncaught error inside a worker reaches the page there).
(() => {
  /** @type {string[]} */
  const errors = [];
  Object.defineProperty(window, '__consoleErrors', { value: errors });
  const text = (args) => args.map((a) => {
    if (a instanceof Error) return `${a.name}: ${a.message}`;
    if (typeof a === 'string') return a;
    try { return JSON.stringify(a); } catch { return String(a); }
  }).join(' ');
  const original = console.error;
  console.error = function (...args) {
    errors.push(`console.error: ${text(args)}`);
    return original.apply(this, args);
  };
  addEventListener('error', (event) => {
    if (event instanceof ErrorEvent) errors.push(`uncaught: ${event.message} (${event.filename}:${event.lineno})`);
  });
  addEventListener('unhandledrejection', (event) => {
    const reason = event.reason;
    errors.push(`unhandled rejection: ${reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)}`);
  });
  const NativeWorker = window.Worker;
  if (typeof NativeWorker === 'function') {
    window.Worker = class extends NativeWorker {
      constructor(url, options) {
        super(url, options);
        // Counted when no listener of the page handled it (checked once the event has been dispatched).
        this.addEventListener('error', (event) => setTimeout(() => {
          if (!event.defaultPrevented) errors.push(`worker ${String(url)}: ${event.message || 'error'}`);
        }));
      }
    };
  }
})();
