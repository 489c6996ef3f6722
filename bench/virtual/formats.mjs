// The virtual log formats, by file extension: each module turns a template written by our own
// writer into an object { size, read(offset, length) } of any size. Add a format by adding a module.
import { loadVirtualBag, parseSize } from './rosbag.mjs';
import { loadVirtualMcap } from './mcap.mjs';
import { loadVirtualCarla } from './carla.mjs';
import { loadVirtualBddf } from './bddf.mjs';

export const formats = {
  bag: { describe: 'ROS bag 2.0', open: loadVirtualBag },
  mcap: { describe: 'MCAP with zstd chunks and a summary', open: loadVirtualMcap },
  log: { describe: 'CARLA recorder log', open: loadVirtualCarla },
  bddf: { describe: 'BDDF with its index and SHA1', open: loadVirtualBddf },
};

export { parseSize };

// `--template bag=FILE` options into { bag: FILE }.
export function templateOptions(values) {
  const out = {};
  for (const v of values) {
    const m = /^(\w+)=(.+)$/.exec(v);
    if (!m || !formats[m[1]]) throw new Error(`--template takes EXT=FILE with EXT one of ${Object.keys(formats).join(', ')} (got "${v}")`);
    out[m[1]] = m[2];
  }
  return out;
}

// One virtual log per (template, size), kept: building one parses its template.
export function virtualLogs(templates) {
  const cache = new Map();
  return (extension, size) => {
    const path = templates[extension];
    if (!path) return null;
    const key = `${extension}:${size}`;
    if (!cache.has(key)) cache.set(key, formats[extension].open(path, size));
    return cache.get(key);
  };
}
