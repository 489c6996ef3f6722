// SHA1 peers for the BDDF checksum, for bench/run.mjs:
//   node sha1.mjs sha1sum FILE   coreutils sha1sum (OpenSSL-grade native code), as a process
//   node sha1.mjs node FILE      node:crypto (OpenSSL) over 8 MB fs.readSync reads, as JS can
// Prints one JSON line: seconds, sha1, peak_rss_kb.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

const [how, file] = process.argv.slice(2);
const t0 = performance.now();
let sha1;
let rss;
if (how === 'sha1sum') {
  const run = spawnSync('sha1sum', [file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  sha1 = run.stdout.split(' ')[0];
  rss = null;  // the child's is not ours to see here
} else {
  const hash = createHash('sha1');
  const buffer = Buffer.allocUnsafe(8 << 20);
  const fd = openSync(file, 'r');
  for (let at = 0, n; (n = readSync(fd, buffer, 0, buffer.length, at)) > 0; at += n) hash.update(buffer.subarray(0, n));
  closeSync(fd);
  sha1 = hash.digest('hex');
  rss = process.resourceUsage().maxRSS;
}
console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, sha1, peak_rss_kb: rss }));
