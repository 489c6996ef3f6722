// Helpers of the CDR agreement tests (cdr-agreement, rosbag2-agreement): logscope's JSON Lines read
// with exact numbers, decoded values flattened to leaf paths, and the comparison of one value.
import assert from 'node:assert/strict';

// JSON whose numbers stay their source text ({num: "18446744073709551615"}): JSON.parse would
// round 64-bit integers.
export function parseExact(text) {
  let i = 0;
  const ws = () => { while (' \t\r\n'.includes(text[i])) i++; };
  function value() {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out = {};
      ws();
      if (text[i] === '}') { i++; return out; }
      for (;;) {
        ws();
        const key = string();
        ws();
        assert.equal(text[i++], ':');
        out[key] = value();
        ws();
        if (text[i++] === '}') return out;
      }
    }
    if (c === '[') {
      i++;
      const out = [];
      ws();
      if (text[i] === ']') { i++; return out; }
      for (;;) {
        out.push(value());
        ws();
        if (text[i++] === ']') return out;
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) { i += word.length; return JSON.parse(word); }
    }
    const m = /^-?[0-9][0-9.eE+-]*/.exec(text.slice(i, i + 64));
    assert.ok(m, `a number at ${i} of ${text.slice(0, 80)}`);
    i += m[0].length;
    return { num: m[0] };
  }
  function string() {
    const start = i;
    assert.equal(text[i++], '"');
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  }
  const v = value();
  return v;
}

// Leaves of a decoded value by path. Typed arrays and arrays give `[i]`, objects `.key`.
export function flatten(value, prefix, out) {
  if (value === null || value === undefined) return out;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    out.set(prefix, value);
  } else if (ArrayBuffer.isView(value) || Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) flatten(value[k], `${prefix}[${k}]`, out);
  } else if (typeof value === 'object' && 'num' in value && Object.keys(value).length === 1) {
    out.set(prefix, value);
  } else {
    for (const [key, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

// Does logscope's exact text (or JSON value) equal the oracle's value?
export function same(ours, theirs) {
  if (typeof theirs === 'bigint') return typeof ours === 'object' && BigInt(ours.num) === theirs;
  if (typeof theirs === 'number') {
    const n = typeof ours === 'object' ? Number(ours.num) : { nan: NaN, inf: Infinity, '-inf': -Infinity }[ours];
    if (Number.isNaN(theirs)) return Number.isNaN(n);
    return n === theirs || (Math.fround(theirs) === theirs && Math.fround(n) === theirs);
  }
  return ours === theirs;
}
