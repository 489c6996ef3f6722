// What to tell the user when the browser fails to read a chosen local file: in the workers'
// readers, and in the page's own reads for a worker that cannot read it (worker-client.js).
// (A local file's stream fails with a TypeError "network error" in Chromium.)
/** @param {unknown} failure */
export function describeReadError(failure) {
  const error = /** @type {import('./types.js').ErrorLike | null | undefined} */ (failure);
  const streamFailed = error && error.name === 'TypeError' && /network error/i.test(String(error.message));
  if (error && (error.name === 'NotReadableError' || streamFailed)) return 'the browser could not read the file (it may have been moved, changed or deleted since it was chosen)';
  return String((error && error.message) || error);
}
