// Writes a virtual log to a local file, byte for byte what serve.mjs answers for the same template
// and size, so that local and remote runs read the same bytes.
//   node bench/virtual/write.mjs --template bag=demo.bag --size 2G OUT.bag
import { openSync, writeSync, closeSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseSize, templateOptions, virtualLogs } from './formats.mjs';

const PIECE = 8 << 20;

// Returns the size written.
export function writeVirtual(templates, out, size) {
  const log = virtualLogs(templates)(extname(out).slice(1), size);
  if (!log) throw new Error(`no template for ${out} (give --template ${extname(out).slice(1)}=FILE)`);
  const fd = openSync(out, 'w');
  try {
    for (let at = 0; at < log.size; at += PIECE) {
      const bytes = log.read(at, Math.min(PIECE, log.size - at));
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
    }
  } finally {
    closeSync(fd);
  }
  return log.size;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { template: { type: 'string', multiple: true, default: [] }, size: { type: 'string', default: '1G' } },
  });
  if (positionals.length !== 1) throw new Error('usage: write.mjs --template EXT=FILE --size 2G OUT.EXT');
  const size = writeVirtual(templateOptions(values.template), positionals[0], parseSize(values.size));
  console.log(`${positionals[0]}: ${size} bytes`);
}
