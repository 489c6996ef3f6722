// A small static server for the inspector (web/), with the MIME types it needs and HTTP Range
// support, so the page can also open the demo files the way it opens remote logs.
// Usage: node scripts/serve.mjs [--port 8080] [--root web] [--host 127.0.0.1]
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export const mimeTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

// Cross-origin isolation: lets the codec worker share memory with its read-ahead worker
// (SharedArrayBuffer), so whole-file passes read the next window while working on this one.
// `credentialless`, not `require-corp`: remote logs (?url=) and the no-cors reachability probe
// of web/src/remote.js keep working (cross-origin requests just go out without cookies).
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
};

// Serves `root`; returns the http.Server (already listening). `isolate: false` leaves out the
// isolation headers, as a plain static host would (the page then reads without read-ahead).
export function serveStatic({ root, port = 8080, host = '127.0.0.1', log = true, isolate = true }) {
  const base = resolve(root);
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let path = normalize(join(base, decodeURIComponent(url.pathname)));
    if (!path.startsWith(base)) return send(response, 403, 'forbidden');
    let info;
    try {
      info = statSync(path);
      if (info.isDirectory()) {
        path = join(path, 'index.html');
        info = statSync(path);
      }
    } catch {
      return send(response, 404, 'not found');
    }
    const headers = {
      'Content-Type': mimeTypes[extname(path)] || 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-cache',
      'Last-Modified': info.mtime.toUTCString(),
      ETag: `"${info.size}-${Math.floor(info.mtimeMs)}"`,
      ...(isolate ? isolationHeaders : {}),
    };
    // A revalidation of an unchanged file is answered 304: the browser keeps what it compiled
    // from it (its code caches of scripts and wasm), as a real host lets it.
    if (!request.headers.range && request.headers['if-none-match'] === headers.ETag) {
      response.writeHead(304, headers);
      return response.end();
    }
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range || '');
    if (range && info.size > 0) {
      let start = range[1] === '' ? Math.max(0, info.size - Number(range[2])) : Number(range[1]);
      let end = range[1] === '' || range[2] === '' ? info.size - 1 : Math.min(Number(range[2]), info.size - 1);
      if (start > end || start >= info.size) {
        response.writeHead(416, { 'Content-Range': `bytes */${info.size}` });
        return response.end();
      }
      response.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${info.size}`, 'Content-Length': end - start + 1 });
      if (request.method === 'HEAD') return response.end();
      return createReadStream(path, { start, end }).pipe(response);
    }
    response.writeHead(200, { ...headers, 'Content-Length': info.size });
    if (request.method === 'HEAD') return response.end();
    createReadStream(path).pipe(response);
  });
  server.listen(port, host, () => {
    if (log) console.log(`logscope: serving ${base} at http://${host === '127.0.0.1' ? 'localhost' : host}:${server.address().port}/`);
  });
  return server;
}

function send(response, status, text) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(text);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
  };
  serveStatic({ root: option('--root', join(here, '..', 'web')), port: Number(option('--port', 8080)), host: option('--host', '127.0.0.1') });
}
