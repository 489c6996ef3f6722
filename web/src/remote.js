// Remote files (?url=): the probe that decides whether a URL can be read in ranges, and the
// explanations when it cannot (which headers are missing, and how to add them).
import { h, formatBytes } from './dom.js';

export const PROBE_BYTES = 64 * 1024;

// A file name for a URL: the last path segment, else the host.
export function nameOfUrl(url) {
  try {
    const u = new URL(url);
    const last = u.pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : u.hostname;
  } catch { return url; }
}

// Probes `url` with one small Range request. Resolves to
//   {ok: true, url, name, size, etag, lastModified, crossOrigin, hidden: [header names not exposed],
//   head: the first PROBE_BYTES (what the codec reads first: the magic, a header; the workers read
//   them from memory, so opening an indexed file costs the probe and its index reads only)}
//   (with `whole`, a File, when the server sent a small file whole)
// or {ok: false, problem, url, name, ...details} where problem is one of
//   'bad-url', 'cors' (no Access-Control-Allow-Origin), 'unreachable', 'no-range' (200, whole body),
//   'expose' (206 but Content-Range hidden by CORS), 'http' (an error status), 'empty'.
/**
 * @typedef {{ok: true, url: string, name: string, crossOrigin: boolean, origin: string, size: number, etag: string | null,
 *   lastModified: string | null, hidden: string[], whole?: File, head?: Uint8Array}} ProbeOk
 * @typedef {{ok: false, problem: string, url: string, name: string, crossOrigin?: boolean, origin?: string, detail?: string,
 *   missing?: string[], status?: number, statusText?: string, size?: number | null, etag?: string | null, lastModified?: string | null}} ProbeFailed
 * @typedef {ProbeOk | ProbeFailed} ProbeResult
 */
/**
 * @param {string} rawUrl
 * @returns {Promise<ProbeResult>}
 */
export async function probeRemote(rawUrl) {
  let url;
  try {
    url = new URL(rawUrl, location.href);
  } catch {
    return { ok: false, problem: 'bad-url', url: rawUrl, name: rawUrl };
  }
  if (!/^https?:$/.test(url.protocol)) return { ok: false, problem: 'bad-url', url: rawUrl, name: rawUrl };
  const href = url.href;
  const name = nameOfUrl(href);
  const crossOrigin = url.origin !== location.origin;
  const base = { url: href, name, crossOrigin, origin: location.origin };
  const controller = new AbortController();
  let response;
  try {
    response = await fetch(href, { headers: { Range: `bytes=0-${PROBE_BYTES - 1}` }, cache: 'no-store', credentials: 'omit', signal: controller.signal });
  } catch (error) {
    // A CORS refusal and an unreachable server look the same to a script. A no-cors request
    // tells them apart: it succeeds (with an unreadable body) when the server answered at all.
    let reachable = false;
    if (crossOrigin) {
      const probe = new AbortController();
      try {
        await fetch(href, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: probe.signal });
        reachable = true;
      } catch { /* unreachable */ }
      probe.abort();
    }
    return { ok: false, ...base, problem: reachable ? 'cors' : 'unreachable', detail: String(/** @type {Error} */ (error).message || error) };
  }
  const headers = response.headers;
  const etag = headers.get('ETag');
  const lastModified = headers.get('Last-Modified');
  if (response.status === 206) {
    const contentRange = headers.get('Content-Range');
    if (!contentRange) { controller.abort(); return { ok: false, ...base, problem: 'expose', missing: ['Content-Range'] }; }
    const total = /\/(\d+)\s*$/.exec(contentRange);
    if (!total) { controller.abort(); return { ok: false, ...base, problem: 'http', status: 206, statusText: `Content-Range "${contentRange}" gives no total size` }; }
    const hidden = crossOrigin && !etag ? ['ETag'] : [];
    // The bytes from 0 the range says, when the body holds them all (else the workers ask again).
    const range = /^bytes\s+0-(\d+)\//.exec(contentRange);
    const body = range ? await response.arrayBuffer().catch(() => null) : (controller.abort(), null);
    const head = body && body.byteLength === Number(/** @type {RegExpExecArray} */ (range)[1]) + 1 ? new Uint8Array(body) : undefined;
    return { ok: true, ...base, size: Number(total[1]), etag, lastModified, hidden, head };
  }
  if (response.status === 200) {
    const length = headers.get('Content-Length');
    // A file no larger than the probe may come whole even from a server with Range support:
    // it is all there, so it is opened as it is.
    if (length !== null && Number(length) <= PROBE_BYTES) {
      const body = await response.arrayBuffer().catch(() => null);
      if (body && body.byteLength === Number(length)) return { ok: true, ...base, whole: new File([body], name), size: body.byteLength, etag, lastModified, hidden: [] };
    }
    controller.abort(); // the server is sending the whole file: stop it
    return { ok: false, ...base, problem: 'no-range', size: length === null ? null : Number(length), etag, lastModified };
  }
  controller.abort();
  if (response.status === 416) {
    const contentRange = headers.get('Content-Range') || '';
    if (/\/0\s*$/.test(contentRange)) return { ok: false, ...base, problem: 'empty' };
  }
  return { ok: false, ...base, problem: 'http', status: response.status, statusText: response.statusText };
}

// Downloads the whole file (after the user agreed), with progress; resolves to a File.
/**
 * @param {string} url
 * @param {string} name
 * @param {{onProgress?: (done: number, total: number) => void, signal?: AbortSignal}} [options]
 * @returns {Promise<File>}
 */
export async function downloadWhole(url, name, { onProgress, signal } = {}) {
  const response = await fetch(url, { cache: 'no-store', credentials: 'omit', signal });
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
  const total = Number(response.headers.get('Content-Length')) || 0;
  const reader = /** @type {ReadableStream<Uint8Array<ArrayBuffer>>} */ (response.body).getReader(); // a GET's answer has a body
  const parts = [];
  let done = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    parts.push(chunk.value);
    done += chunk.value.byteLength;
    onProgress?.(done, Math.max(total, done));
  }
  return new File(parts, name, { lastModified: Date.now() });
}

const code = (text) => h('code', {}, text);
const snippet = (text) => h('pre.snippet', {}, text);

function corsSnippets(origin, headers) {
  const expose = 'Content-Range, Content-Length, ETag';
  return h('details.server-help', { open: true },
    h('summary', {}, 'How to add them'),
    h('p.small', {}, 'nginx (in the location that serves the logs):'),
    snippet(`add_header Access-Control-Allow-Origin "${origin}" always;\nadd_header Access-Control-Expose-Headers "${expose}" always;`),
    h('p.small', {}, 'Apache (.htaccess or the vhost, with mod_headers):'),
    snippet(`Header always set Access-Control-Allow-Origin "${origin}"\nHeader always set Access-Control-Expose-Headers "${expose}"`),
    h('p.small', {}, 'Amazon S3 (bucket → Permissions → CORS):'),
    snippet(`[{"AllowedOrigins": ["${origin}"], "AllowedMethods": ["GET", "HEAD"],\n  "AllowedHeaders": ["Range"], "ExposeHeaders": ["${expose.split(', ').join('", "')}"]}]`),
    headers ? h('p.small.muted', {}, 'More in the README, section "Hosting and sharing".') : null);
}

// The explanation for a failed probe: a title, a paragraph and the element with the details.
/** @param {ProbeFailed} result */
export function explainProbe(result) {
  const { url, origin, problem } = result;
  const where = h('code.url', {}, url);
  switch (problem) {
    case 'bad-url':
      return { title: 'This is not a web address logscope can open', body: h('div', {}, h('p', {}, 'The ', code('url'), ' parameter must be an ', code('http://'), ' or ', code('https://'), ' address of a log file: ', where, '.')) };
    case 'unreachable':
      return { title: 'The server could not be reached', body: h('div', {}, h('p', {}, 'Nothing answered at ', where, '. Check the address and your network connection, then reload this page.'), h('p.small.muted', {}, result.detail || '')) };
    case 'cors':
      return {
        title: 'The server does not allow this page to read the file (CORS)',
        body: h('div', {},
          h('p', {}, 'The server at ', where, ' answered, but without the header ', code('Access-Control-Allow-Origin'), `, so the browser hides the file from this page (${origin}). Missing headers:`),
          h('ul.missing-headers', {},
            h('li', {}, code(`Access-Control-Allow-Origin: ${origin}`), ' (or ', code('*'), ')'),
            h('li', {}, code('Access-Control-Expose-Headers: Content-Range, Content-Length'), ' (add ', code('ETag'), ' too, so changes are noticed)')),
          corsSnippets(origin, true)),
      };
    case 'expose':
      return {
        title: 'The server hides the Content-Range header from this page',
        body: h('div', {},
          h('p', {}, 'The server at ', where, ' supports Range requests and allows this origin, but does not expose ', code('Content-Range'), ', so the size of the file cannot be read. Missing header:'),
          h('ul.missing-headers', {}, h('li', {}, code('Access-Control-Expose-Headers: Content-Range, Content-Length'), ' (add ', code('ETag'), ' too)')),
          corsSnippets(origin, true)),
      };
    case 'no-range':
      return {
        title: 'The server does not support Range requests',
        body: h('div', {},
          h('p', {}, 'Asked for the first ', formatBytes(PROBE_BYTES), ' of ', where, ', the server sent the whole file (HTTP 200 instead of 206 Partial Content). logscope reads a log in pieces, so it needs a server that answers ', code('Range: bytes=…'), ' requests and says so with ', code('Accept-Ranges: bytes'), '.'),
          h('ul.missing-headers', {}, h('li', {}, code('Accept-Ranges: bytes'), ' and ', code('206 Partial Content'), ' answers to ', code('Range'), ' requests'),
            result.crossOrigin ? h('li', {}, code('Access-Control-Expose-Headers: Content-Range, Content-Length')) : null),
          h('details.server-help', {}, h('summary', {}, 'How to enable it'),
            h('p.small', {}, 'nginx and Apache serve static files with Range support by default; it is usually lost behind a proxy or a script that streams the file. For nginx in front of an application:'),
            snippet('proxy_force_ranges on;   # or serve the files with "root"/"alias" directly'),
            h('p.small', {}, 'Amazon S3, Google Cloud Storage and GitHub Pages support Range requests as they are.')),
          h('p', {}, 'You can instead download the whole file', result.size ? ` (${formatBytes(result.size)})` : '', ' into this tab and open it from memory. Nothing is uploaded.')),
        canDownload: true,
      };
    case 'empty':
      return { title: 'The remote file is empty', body: h('div', {}, h('p', {}, 'The server says ', where, ' has 0 bytes.')) };
    default:
      return { title: `The server answered HTTP ${result.status}`, body: h('div', {}, h('p', {}, 'Asking for ', where, ' gave ', code(`${result.status} ${result.statusText || ''}`.trim()), '. Check the address, and that the file is public.')) };
  }
}
