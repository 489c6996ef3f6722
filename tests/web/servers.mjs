// HTTP servers the sharing tests start in their own process on 127.0.0.1 (port 0): a file server
// whose Range and CORS support can be switched off, which counts every byte it sends.
import { createServer } from 'node:http';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { join, normalize, resolve } from 'node:path';
import { serveStatic } from '../../scripts/serve.mjs';
import { parseRanges, sendMultipart } from '../../scripts/http-ranges.mjs';

// Serves the files of `dir` under /files/<name>.
//   range: honour Range requests (206); else every GET gets the whole file (200)
//   cors: 'full' (Allow-Origin + Expose-Headers), 'allow-only' (Allow-Origin only), 'none'
//   delayMs: each answer waits this long first, as over a network with that round trip
//   Several ranges in one request get one multipart/byteranges answer, as from nginx
//   (scripts/http-ranges.mjs); counted as one ranged request.
// server.stats: {requests, ranged, full, bytes} — bytes counts body bytes actually written.
export async function fileServer(dir, { range = true, cors = 'full', delayMs = 0 } = {}) {
  const base = resolve(dir);
  const stats = { requests: 0, ranged: 0, full: 0, bytes: 0, log: [] };
  const server = createServer(async (request, response) => {
    if (delayMs) await new Promise((ok) => setTimeout(ok, delayMs));
    const url = new URL(request.url, 'http://x');
    const corsHeaders = {};
    if (cors !== 'none') corsHeaders['Access-Control-Allow-Origin'] = '*';
    if (cors === 'full') corsHeaders['Access-Control-Expose-Headers'] = 'Content-Range, Content-Length, ETag, Accept-Ranges';
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...corsHeaders, 'Access-Control-Allow-Headers': cors === 'none' ? '' : 'Range', 'Access-Control-Allow-Methods': 'GET, HEAD' });
      return response.end();
    }
    if (!url.pathname.startsWith('/files/')) { response.writeHead(404, corsHeaders); return response.end('not found'); }
    const path = normalize(join(base, decodeURIComponent(url.pathname.slice('/files/'.length))));
    let info;
    try { info = statSync(path); } catch { response.writeHead(404, corsHeaders); return response.end('not found'); }
    stats.requests++;
    const headers = {
      ...corsHeaders,
      'Content-Type': 'application/octet-stream',
      'Cache-Control': 'no-store',
      'Last-Modified': info.mtime.toUTCString(),
      ETag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
    };
    if (range) headers['Accept-Ranges'] = 'bytes';
    const several = range && request.headers.range ? parseRanges(request.headers.range, info.size) : null;
    if (several && several.length > 1) {
      stats.ranged++;
      stats.log.push(`${request.headers.range.slice(0, 40)}… -> 206 multipart`);
      const fd = openSync(path, 'r');
      try {
        sendMultipart(response, { headers, ranges: several, size: info.size, head: request.method === 'HEAD', read: (start, end) => {
          const bytes = Buffer.alloc(end - start);
          readSync(fd, bytes, 0, bytes.length, start);
          stats.bytes += bytes.length;
          return bytes;
        } });
      } finally {
        closeSync(fd);
      }
      return;
    }
    // One range (a suffix "-n" too) as parseRanges reads it, as the multipart answer above does.
    let start = 0, end = info.size - 1, status = 200;
    if (several) {
      if (several.length === 0) {
        response.writeHead(416, { ...headers, 'Content-Range': `bytes */${info.size}` });
        return response.end();
      }
      [start, end] = [several[0][0], several[0][1] - 1];
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${info.size}`;
      stats.ranged++;
    } else stats.full++;
    headers['Content-Length'] = end - start + 1;
    stats.log.push(`${request.headers.range || 'whole'} -> ${status}`);
    response.writeHead(status, headers);
    if (request.method === 'HEAD') return response.end();
    const stream = createReadStream(path, { start, end });
    stream.on('data', (chunk) => { stats.bytes += chunk.length; });
    response.on('close', () => stream.destroy());
    stream.pipe(response);
  });
  server.stats = stats;
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  server.url = `http://127.0.0.1:${server.address().port}/files/`;
  server.closeAll = () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); });
  return server;
}

// The static server for a folder under a sub-path (e.g. dist/ under /tools/logscope/).
export async function subPathServer(root, prefix) {
  const inner = serveStatic({ root, port: 0, log: false });
  await new Promise((ok) => (inner.listening ? ok() : inner.once('listening', ok)));
  const innerPort = inner.address().port;
  const { request: httpRequest } = await import('node:http');
  const server = createServer((req, res) => {
    if (!req.url.startsWith(prefix)) { res.writeHead(404); return res.end('outside the sub-path'); }
    const forward = httpRequest({ host: '127.0.0.1', port: innerPort, path: '/' + req.url.slice(prefix.length), method: req.method, headers: req.headers }, (upstream) => {
      res.writeHead(upstream.statusCode, upstream.headers);
      upstream.pipe(res);
    });
    forward.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(forward);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  server.url = `http://127.0.0.1:${server.address().port}${prefix}`;
  server.closeAll = async () => {
    server.closeAllConnections?.();
    inner.closeAllConnections?.();
    await new Promise((ok) => server.close(ok));
    await new Promise((ok) => inner.close(ok));
  };
  return server;
}
