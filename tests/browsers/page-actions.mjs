// What the cross-browser tests do on the page the same way, through the driver (driver.mjs).

// Waits for `name` to open: its state (summary, unknown, error, crashed, silent).
export const opened = (b, name) => b.waitFor((n) => document.body.dataset.fileName === n && ['summary', 'unknown', 'error', 'crashed', 'silent'].includes(document.body.dataset.state) && document.body.dataset.state, name, { what: `${name} opened` });

// A small local file is verified and fully checked by itself after its summary: waits for both.
export const checkedAndIdle = (b) => b.waitFor(() => document.body.dataset.checked === 'true' && !document.body.dataset.job, undefined, { timeout: 120_000, what: 'the full check to end' });

// Extracts the open file's time range [from, to] s (text, as typed) from the Extract tab; the
// output's state (done, failed, cancelled).
export async function extractRange(b, from, to) {
  await b.click('#tab-extract');
  await b.waitFor(() => Boolean(document.querySelector('#extract-run')), undefined, { what: 'the Extract form' });
  await b.evaluate((range) => {
    for (const [id, v] of range) {
      const input = document.querySelector(id);
      input.value = v;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, [['#extract-from', from], ['#extract-to', to]]);
  await b.click('#extract-run');
  return b.waitFor(() => ['done', 'failed', 'cancelled'].includes(document.querySelector('#output-result')?.dataset.state) && document.querySelector('#output-result').dataset.state, undefined, { timeout: 120_000, what: 'the extract' });
}
