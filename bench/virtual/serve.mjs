// Serves virtual logs over HTTP with Range: GET /<name>.<ext>?size=100G (206 for a range, 206
// multipart/byteranges for several, as nginx answers them, 200 for the whole file, 416 past the
// end), HEAD, an optional delay before every answer (a remote
// server's latency), and counts of requests and bytes at GET /stats (?reset=1 zeroes them), with
// `rounds`: the longest chain of requests each asked after the one before was answered, the round
// trips a reader waited for one after another (requests in flight together are one round). CORS
// is open, so a page served from another origin opens them with ?url= (bench/scale-page.mjs).
// `multiRange` ('multipart', 'whole', 'first') answers several ranges as nginx does, or as servers
// without multipart answers do (the whole file, as S3; only the first range), for the tests.
//   node bench/virtual/serve.mjs --template bag=demo.bag [--template mcap=T.mcap --template bddf=T.bddf
//     --template log=T.log] [--port 8090] [--delay-ms 50]   (templates: formats.mjs)
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseSize, templateOptions, virtualLogs } from './formats.mjs';
import { parseRanges, sendMultipart } from '../../scripts/http-ranges.mjs';

const PIECE = 4 << 20;  // bytes built per write, so a whole-file answer streams in bounded memory

async function send(res, log, start, end) {
  for (let at = start; at < end; at += PIECE) {
    const bytes = log.read(at, Math.min(PIECE, end - at));
    if (!res.write(bytes)) await new Promise((resolve) => res.once('drain', resolve));
    if (res.destroyed) return;
  }
  res.end();
}

export function startServer({ templates, port = 0, delayMs = 0, host = '127.0.0.1', multiRange = 'multipart' }) {
  const open = virtualLogs(templates);
  const stats = { requests: 0, bytes: 0, ranges: [], rounds: 0 };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/stats') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(stats));
      if (url.searchParams.has('reset')) Object.assign(stats, { requests: 0, bytes: 0, ranges: [], rounds: 0 });
      return;
    }
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Content-Range, Content-Length, ETag, Accept-Ranges', 'Cross-Origin-Resource-Policy': 'cross-origin' };
    for (const [key, value] of Object.entries(cors)) res.setHeader(key, value);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Headers': 'Range', 'Access-Control-Allow-Methods': 'GET, HEAD', 'Access-Control-Max-Age': '600' });
      return res.end();
    }
    stats.requests++;
    const round = stats.rounds + 1; // a chain: after every request answered before this one came
    res.once('close', () => { stats.rounds = Math.max(stats.rounds, round); });
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const fail = (status, message) => { res.writeHead(status, { 'Content-Type': 'text/plain' }); res.end(message + '\n'); };
    const m = /^\/[\w.-]+\.(\w+)$/.exec(url.pathname);
    if (!m) return fail(404, 'ask for /<name>.<ext>?size=100G');
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'GET or HEAD');
    let log;
    try {
      log = open(m[1], parseSize(url.searchParams.get('size') ?? '1G'));
    } catch (e) {
      return fail(400, e.message);
    }
    if (!log) return fail(404, `no template for .${m[1]} (start the server with --template ${m[1]}=FILE)`);
    const headers = { 'Accept-Ranges': 'bytes', 'Content-Type': 'application/octet-stream', ETag: `"${m[1]}-${log.size}"` };
    let ranges = req.headers.range ? parseRanges(req.headers.range, log.size) : null;
    if (ranges && ranges.length === 0) {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${log.size}` });
      return res.end();
    }
    if (ranges?.length > 1 && multiRange === 'whole') ranges = null;
    if (ranges?.length > 1 && multiRange === 'first') ranges = ranges.slice(0, 1);
    if (ranges?.length > 1) {
      return sendMultipart(res, { headers, ranges, size: log.size, head: req.method === 'HEAD', read: (start, end) => {
        stats.bytes += end - start;
        stats.ranges.push([start, end - start]);
        return log.read(start, end - start);
      } });
    }
    let [start, end] = ranges ? ranges[0] : [0, log.size], status = ranges ? 206 : 200;
    if (ranges) headers['Content-Range'] = `bytes ${start}-${end - 1}/${log.size}`;
    res.writeHead(status, { ...headers, 'Content-Length': end - start });
    if (req.method === 'HEAD') return res.end();
    stats.bytes += end - start;
    stats.ranges.push([start, end - start]);
    try {
      await send(res, log, start, end);
    } catch (e) {
      res.destroy(e);
    }
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const base = `http://${host}:${server.address().port}`;
      resolve({ base, stats, close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }) });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { template: { type: 'string', multiple: true, default: [] }, port: { type: 'string', default: '8090' }, 'delay-ms': { type: 'string', default: '0' } },
  });
  const templates = templateOptions(values.template);
  if (!Object.keys(templates).length) throw new Error('give at least one --template EXT=FILE (e.g. bag=demo.bag)');
  const { base } = await startServer({ templates, port: Number(values.port), delayMs: Number(values['delay-ms']) });
  console.log(`serving virtual logs at ${base}/<name>.<ext>?size=100G (stats at ${base}/stats)`);
}
