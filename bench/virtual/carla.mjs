// A virtual CARLA recorder log of any size, made from a template that our own writer produced
// (`logscope make-demo-carla`). The template's header and first frame (where its actors are
// created) come once; then its frames 2..N repeat, copy r shifted r periods later: the frame id by
// r (N - 1), and the elapsed time, visual time and platform time by r periods. A period is the
// template's frames 2..N plus the duration of frame N - 1, so that time runs on evenly from a copy
// to the next. Frame N's duration, -1 in the template (CARLA back-patches every frame's duration but
// the last's), is that duration, except in the virtual file's own last frame, which keeps -1.
// Positions and every other payload are the template's: the actors jump back at every copy.
// read(offset, length) builds just the bytes asked for.
import { readFileSync } from 'node:fs';
import { CycledSpan, FixedSpan, SpanFile, addU64, largestCount, u64Words } from './spans.mjs';

const PACKET = { frameStart: 0, frameEnd: 1, platformTime: 14, visualTime: 20 };

class TemplateError extends Error {}

// The log header's length: version, "CARLA_RECORDER", date, map name.
function headerLength(bytes) {
  const magic = 'CARLA_RECORDER';
  if (bytes.length < 2 + 2 + magic.length + 8 + 2 || bytes.readUInt16LE(2) !== magic.length || bytes.toString('latin1', 4, 4 + magic.length) !== magic) throw new TemplateError('the template is not a CARLA recorder log');
  const at = 4 + magic.length + 8;
  return at + 2 + bytes.readUInt16LE(at);
}

// Every frame: where it starts and ends, and where its times are.
function frames(bytes, start) {
  const out = [];
  let frame = null;
  for (let at = start; at < bytes.length;) {
    if (at + 5 > bytes.length) throw new TemplateError(`a packet header at byte ${at} runs past the end of the template`);
    const id = bytes[at], size = bytes.readUInt32LE(at + 1), payload = at + 5;
    if (payload + size > bytes.length) throw new TemplateError(`the packet at byte ${at} runs past the end of the template`);
    if (id === PACKET.frameStart) {
      if (frame) throw new TemplateError(`the frame at byte ${frame.start} has no end`);
      if (size !== 24) throw new TemplateError(`the frame start at byte ${at} is ${size} bytes, not 24`);
      frame = { start: at, id: payload, duration: payload + 8, elapsed: payload + 16, times: [] };
    } else if (!frame) {
      throw new TemplateError(`the packet at byte ${at} is outside a frame`);
    } else if ((id === PACKET.platformTime || id === PACKET.visualTime) && size === 8) {
      frame.times.push(payload);
    } else if (id === PACKET.frameEnd) {
      frame.end = payload + size;
      out.push(frame);
      frame = null;
    }
    at = payload + size;
  }
  if (frame) throw new TemplateError(`the last frame, at byte ${frame.start}, has no end`);
  return out;
}

export class VirtualCarla {
  // template: bytes of a CARLA log written by our writer; size: the wanted size in bytes (the log
  // is the largest whole number of frames that fits, and at least two).
  constructor(template, size) {
    const head = headerLength(template);
    const all = frames(template, head);
    if (all.length < 3) throw new TemplateError(`the template has ${all.length} frames; at least 3 are needed`);
    const [first, ...cycled] = all;
    const elapsed = (f) => template.readDoubleLE(f.elapsed);
    const step = template.readDoubleLE(all[all.length - 2].duration);
    this.period = elapsed(all[all.length - 1]) - elapsed(cycled[0]) + step;
    this.step = step;
    this.template = template;
    this.cycled = cycled;
    const fixed = new FixedSpan(template.subarray(0, first.end));
    const lengths = cycled.map((f) => f.end - f.start);
    const cycle = lengths.reduce((a, b) => a + b);
    const make = (k) => new SpanFile([fixed, new CycledSpan(lengths, k, (i) => this.#frame(i, k))]);
    const k = largestCount((n) => make(n).size, size, Math.floor((size - fixed.length) / cycle) * cycled.length);
    const file = make(k);
    this.file = file;
    this.size = file.size;
    this.frameCount = k + 1;
  }

  // Cycled frame i of `count`, in copy floor(i / T).
  #frame(i, count) {
    const T = this.cycled.length, f = this.cycled[i % T], copy = Math.floor(i / T);
    const out = Buffer.from(this.template.subarray(f.start, f.end));
    const at = (o) => o - f.start;
    if (copy) {
      addU64(out, at(f.id), u64Words(copy * T));
      const shift = copy * this.period;
      for (const o of [f.elapsed, ...f.times]) out.writeDoubleLE(this.template.readDoubleLE(o) + shift, at(o));
    }
    if (i === count - 1) out.writeDoubleLE(-1, at(f.duration));
    else if (i % T === T - 1) out.writeDoubleLE(this.step, at(f.duration));
    return out;
  }

  read(offset, length) { return this.file.read(offset, length); }
}

export function loadVirtualCarla(templatePath, size) {
  return new VirtualCarla(readFileSync(templatePath), size);
}

export { TemplateError };
