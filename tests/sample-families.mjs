// The folders of ../shared/samples that hold formats logscope reads: the names in the codec's
// format table, as the built CLI lists them under "formats" in `logscope --help`. Without a built
// CLI, the codec's format folders (those with an entry.cpp, as tests/lint/format-names.test.mjs
// finds them): each is one entry of the table. ../shared/samples also holds formats logscope does
// not read yet (mcap/, rosbag2/): tests that walk every sample family walk these only, and a
// format is walked once it is in the table.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'build', 'native', 'logscope');

// The names under "formats" in the usage text: "  NAME  summary" lines up to the first blank one.
export function formatsInHelp(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^formats\b/.test(line));
  if (start < 0) return [];
  const names = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^ {2}([a-z0-9_]+) {2,}\S/.exec(line);
    if (!m) break;
    names.push(m[1]);
  }
  return names;
}

function formatNames() {
  if (existsSync(cli)) {
    const names = formatsInHelp(execFileSync(cli, ['--help'], { encoding: 'utf8' }));
    if (!names.length) throw new Error(`${cli} --help lists no formats: tests/sample-families.mjs cannot read its usage text`);
    return names;
  }
  const codec = join(root, 'codec');
  return readdirSync(codec).filter((d) => existsSync(join(codec, d, 'entry.cpp'))).sort();
}

export const SAMPLE_FAMILIES = formatNames();
