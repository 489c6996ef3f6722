// A tab whose view runs on the full module fetches the view with it, on first use: the view's
// module says so with @logscope-first-use, and build-dist.mjs leaves it out of what the service
// worker caches at install (the first visit), as it does the full module.

/**
 * @template M
 * @param {() => Promise<M>} load the view's module (a dynamic import)
 * @param {string} what the view's name, for a failed load
 * @returns {(panel: HTMLElement) => Promise<M | null>} the module; null, said in the panel, when it did not load
 */
export function firstUseView(load, what) {
  /** @type {Promise<M> | null} */
  let loading = null;
  return async (panel) => {
    loading ??= load();
    try {
      return await loading;
    } catch (error) {
      loading = null; // the next showing tries again (the network may be back)
      panel.replaceChildren(Object.assign(document.createElement('p'), {
        className: 'error', textContent: `The ${what} view could not be loaded: ${/** @type {Error} */ (error)?.message || error}`,
      }));
      return null;
    }
  };
}
