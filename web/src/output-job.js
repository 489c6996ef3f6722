// Extract, repair and export in the job worker: the codec writes the new file through a small
// sink (wasm/output_jobs.cpp hands over ~1 MB pieces) into the Origin Private File System with a
// FileSystemSyncAccessHandle: the bytes go to disk, never piling up in memory, and the bag
// header can be patched at its offset at the end. Where the browser gives this page no OPFS
// (WebKit, file://, some private windows), the pieces are kept in memory up to MEMORY_CAP
// (MemoryOutput); past it the output goes on as a download streamed to the user's Downloads
// (download-stream.js), or, where no service worker can stream one (file://, the single-file
// build) or the output will be patched at the end (a bag's header), the pieces held are sealed
// into Blobs and the output goes on in them. The page names the file and removes it (outputs.js).
// @logscope-first-use: the job worker imports it with its first output (worker.js).
import { DownloadPieces } from './download-stream.js';
import { beat } from './helper-start.js';
import { OUTPUT_DIR, scratchName } from './outputs.js';

export const MEMORY_CAP = 256 * 1024 * 1024;

export async function opfsAvailable() {
  try {
    if (!globalThis.FileSystemFileHandle?.prototype.createSyncAccessHandle) return false;
    await navigator.storage.getDirectory();
    return true;
  } catch {
    return false;
  }
}

/** @type {(n: number) => string} */
const mb = (n) => `${Math.round(n / (1024 * 1024))} MB`;

/** @param {unknown} failure */
function why(failure) {
  const error = /** @type {import('./types.js').ErrorLike | null | undefined} */ (failure);
  if (error?.name === 'QuotaExceededError') return `the browser's storage for this page is full (${String(error.message || error)}); free space on the disk or in the site's storage and try again`;
  return String(error?.message || error);
}

// A file in OPFS, written and read at offsets through its sync access handle.
class OpfsOutput {
  /** @param {string} name */
  static async create(name) {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(OUTPUT_DIR, { create: true });
    const handle = await dir.getFileHandle(name, { create: true });
    const access = await handle.createSyncAccessHandle();
    access.truncate(0);
    return new OpfsOutput(dir, name, handle, access);
  }

  /**
   * @param {FileSystemDirectoryHandle} dir
   * @param {string} name
   * @param {FileSystemFileHandle} handle
   * @param {FileSystemSyncAccessHandle} access
   */
  constructor(dir, name, handle, access) {
    /** @type {FileSystemDirectoryHandle} */ this.dir;
    /** @type {string} */ this.name;
    /** @type {FileSystemFileHandle} */ this.handle;
    /** @type {FileSystemSyncAccessHandle | null} null once closed */ this.access;
    /** @type {number} */ this.size;
    /** @type {'opfs'} */ this.storage;
    Object.assign(this, { dir, name, handle, access, size: 0, storage: 'opfs' });
  }

  // (The handle is open while the codec writes and reads: close() comes last.)
  get open() { return /** @type {FileSystemSyncAccessHandle} */ (this.access); }

  /**
   * @param {Uint8Array} bytes
   * @param {number} at
   */
  writeAt(bytes, at) {
    const n = this.open.write(bytes, { at });
    if (n !== bytes.length) throw new Error(`only ${n} of ${bytes.length} bytes could be written at ${at} (is the disk full?)`);
  }
  /** @param {Uint8Array} bytes */
  append(bytes) { this.writeAt(bytes, this.size); this.size += bytes.length; }
  /**
   * @param {number} offset
   * @param {Uint8Array} bytes
   */
  patch(offset, bytes) { this.writeAt(bytes, offset); }
  /**
   * @param {number} offset
   * @param {Uint8Array} target
   */
  readInto(offset, target) { return this.open.read(target, { at: offset }); }

  // The finished file: the handle is closed (it locks the file) and a File of it goes to the page.
  async finish() {
    this.close();
    return this.handle.getFile();
  }
  close() {
    if (!this.access) return;
    this.access.flush();
    this.access.close();
    this.access = null;
  }
  async discard() {
    this.close();
    await this.dir.removeEntry(this.name).catch(() => {});
  }
}

// The fallback: copies of the pieces in memory, up to `cap` bytes. Past that, with `download`
// (the page's service worker streams downloads), what is held goes to the download and every
// later piece follows it, so the tab holds at most one piece (the service worker a few more);
// without it, or once the codec said it will patch (willPatch), the pieces held so far are sealed
// into a Blob (which the browser may keep on disk: Chromium does past its memory quota) and the
// output goes on, so no single ArrayBuffer caps it. The download is then the chain of Blobs. A
// patch or a read of a sealed part reads that Blob back (FileReaderSync: the job worker).
/** @typedef {{at: number, size: number, bytes: Uint8Array<ArrayBuffer> | null, blob: Blob | null}} OutputPiece */
/** @typedef {{base: string, id: string, name: string, port: MessagePort, refused?: undefined} | {refused: string}} DownloadOffer */
export class MemoryOutput {
  /**
   * @param {string} name
   * @param {number} [cap] bytes held as arrays before they are streamed or sealed into a Blob
   * @param {DownloadOffer | null} [download] where to stream past the cap, or why there is nowhere
   */
  constructor(name, cap = MEMORY_CAP, download = null) {
    /** @type {string} */ this.name;
    /** @type {number} */ this.cap;
    /** @type {OutputPiece[]} */ this.pieces;
    /** @type {number} */ this.size;
    /** @type {number} */ this.held; // bytes in pieces not sealed yet
    /** @type {number} */ this.peakHeld; // the most held at once (tests: memory stays bounded)
    /** @type {'memory' | 'download'} */ this.storage;
    /** @type {DownloadOffer | null} */ this.download;
    /** @type {DownloadPieces | null} the stream, once the output went past the cap */ this.stream;
    /** @type {string} why an output past the cap was not streamed ('' when it was, or was not past) */ this.kept;
    /** @type {boolean} */ this.willBePatched;
    Object.assign(this, { name, cap, pieces: [], size: 0, held: 0, peakHeld: 0, storage: 'memory', download, stream: null, kept: '', willBePatched: false });
  }

  // The codec will patch what it wrote (wasm/output_jobs.cpp asks before it writes): such an
  // output cannot go out in order, so it stays where it can be patched.
  willPatch() { this.willBePatched = true; }

  /**
   * @param {Uint8Array} bytes
   * @returns {void}
   */
  append(bytes) {
    if (this.stream) {
      this.stream.send(bytes);
      this.size += bytes.length;
      return;
    }
    if (this.held + bytes.length > this.cap) {
      if (!this.kept) this.startStream();
      if (this.stream) return this.append(bytes);
      this.seal();
    }
    try {
      this.pieces.push({ at: this.size, size: bytes.length, bytes: bytes.slice(), blob: null });
    } catch (error) {
      throw new Error(`the output reached ${mb(this.size)}, more than this tab can hold (${String(/** @type {Error} */ (error)?.message || error)}): ${this.kept || 'this browser gives the page no private file storage (OPFS)'}; that is the browser's limit, not the file's`);
    }
    this.size += bytes.length;
    this.held += bytes.length;
    this.peakHeld = Math.max(this.peakHeld, this.held);
  }

  // Past the cap: what is held goes to a streamed download, then every later piece. Where that
  // cannot be, `kept` says why (the page shows it) and the pieces are sealed instead.
  startStream() {
    const offer = this.download;
    if (this.willBePatched) this.kept = 'this kind of output gets its header written last (patched at the end), so it cannot go to your Downloads as it is written';
    else if (!offer || offer.refused !== undefined) this.kept = offer?.refused || 'this page offers no streamed download';
    if (this.kept || !offer || offer.refused !== undefined) return;
    const stream = new DownloadPieces(offer, beat);
    try {
      stream.open();
    } catch (error) {
      this.kept = String(/** @type {Error} */ (error)?.message || error);
      return;
    }
    this.stream = stream;
    this.storage = 'download';
    const held = this.pieces;
    this.pieces = [];
    this.held = 0;
    for (const piece of held) {
      stream.send(/** @type {Uint8Array<ArrayBuffer>} */ (piece.bytes));
      piece.bytes = null; // (let go piece by piece: memory falls as the download takes them)
    }
  }

  // The pieces held as arrays become one Blob piece.
  seal() {
    const open = this.pieces.filter((p) => p.bytes);
    if (!open.length) return;
    const sealed = { at: open[0].at, size: open.reduce((n, p) => n + p.size, 0), bytes: null, blob: new Blob(open.map((p) => /** @type {Uint8Array<ArrayBuffer>} */ (p.bytes))) };
    this.pieces = [...this.pieces.filter((p) => !p.bytes), sealed];
    this.held = 0;
  }

  // A sealed piece's bytes, read back (it is then held again until the next seal).
  /** @param {OutputPiece} piece */
  unseal(piece) {
    if (piece.bytes) return piece.bytes;
    const bytes = new Uint8Array(new FileReaderSync().readAsArrayBuffer(/** @type {Blob} */ (piece.blob)));
    piece.bytes = bytes;
    piece.blob = null;
    this.held += piece.size;
    return bytes;
  }

  /**
   * @param {number} offset
   * @param {Uint8Array} bytes
   */
  patch(offset, bytes) {
    if (this.stream) throw new Error(`bytes at ${offset} were patched after they went to the download; this output cannot be streamed`);
    this.copy(offset, bytes.length, (piece, from, to, i) => piece.set(bytes.subarray(i, i + to - from), from));
  }
  /**
   * @param {number} offset
   * @param {Uint8Array} target
   */
  readInto(offset, target) {
    if (this.stream) throw new Error('the output went to the download and cannot be read back here');
    const length = Math.max(0, Math.min(target.length, this.size - offset));
    this.copy(offset, length, (piece, from, to, i) => target.set(piece.subarray(from, to), i));
    return length;
  }
  // Calls fn(piece, from, to, i) for the part of each piece in [offset, offset + length); i: where it starts in the range.
  /**
   * @param {number} offset
   * @param {number} length
   * @param {(piece: Uint8Array, from: number, to: number, i: number) => void} fn
   */
  copy(offset, length, fn) {
    for (const piece of this.pieces) {
      const from = Math.max(offset, piece.at), to = Math.min(offset + length, piece.at + piece.size);
      if (from < to) fn(this.unseal(piece), from - piece.at, to - piece.at, from - offset);
    }
  }
  async finish() {
    const blob = new Blob(this.pieces.map((p) => /** @type {Blob | Uint8Array<ArrayBuffer>} */ (p.bytes || p.blob)));
    this.pieces = [];
    return blob;
  }
  // A streamed output is complete: the download ends. What the service worker counted.
  endStream() {
    const counted = /** @type {DownloadPieces} */ (this.stream).end();
    this.stream = null;
    return counted;
  }
  close() {}
  async discard() {
    this.pieces = [];
    this.stream?.abort('the output was not completed');
    this.stream = null;
  }
}

// The operations the job worker adds (worker.js): writer() gives the full module and its inspector
// of the open file (the full module loads on the first job).
/** @typedef {OpfsOutput | MemoryOutput} Output */
/** @typedef {import('./types.js').WorkerOps} WorkerOps */
/**
 * @typedef {{[Op in 'writeOutput' | 'takeOutput' | 'discardOutput']: (args: WorkerOps[Op]['args'], progress: import('./types.js').ProgressFn) => WorkerOps[Op]['result'] | Promise<WorkerOps[Op]['result']>}} OutputHandlers
 */
/**
 * @param {() => Promise<{Module: import('./types.js').LogscopeModule, inspector: import('./types.js').WasmInspector}>} writer
 * @returns {OutputHandlers}
 */
export function outputOps(writer) {
  /** @type {Output | null} */
  let output = null; // the output being written or checked

  // The object wasm/output_jobs.cpp writes through: views of the codec's memory, written at once.
  // `scratch`: where a writer sets aside what it must hold until the end (a BDDF file's index).
  /**
   * @param {Output} target
   * @param {import('./types.js').LogscopeModule} Module the module that writes
   * @param {OpfsOutput | null} [scratch]
   * @returns {import('./types.js').OutputSink}
   */
  function sinkFor(target, Module, scratch = null) {
    const heap = () => Module.HEAPU8;
    /** @type {import('./types.js').OutputSink} */
    const sink = { error: '', write: () => false, patch: () => false };
    /** @type {(fn: () => void) => boolean} */
    const guard = (fn) => { try { fn(); return true; } catch (error) { sink.error = why(error); return false; } };
    sink.write = (pointer, length) => guard(() => target.append(heap().subarray(pointer, pointer + length)));
    sink.patch = (offset, pointer, length) => guard(() => target.patch(offset, heap().subarray(pointer, pointer + length)));
    sink.willPatch = () => { if (target instanceof MemoryOutput) target.willPatch(); };
    if (scratch) {
      /** @type {import('./types.js').SpillSink} */
      const spill = { error: '', write: () => false, read: () => false };
      /** @type {(fn: () => boolean) => boolean} */
      const guarded = (fn) => { try { return fn() || ((spill.error ||= 'the scratch file ended early'), false); } catch (error) { spill.error = why(error); return false; } };
      spill.write = (offset, pointer, length) => guarded(() => (scratch.writeAt(heap().subarray(pointer, pointer + length), offset), true));
      spill.read = (offset, pointer, length) => guarded(() => scratch.readInto(offset, heap().subarray(pointer, pointer + length)) === length);
      sink.spill = spill;
    }
    return sink;
  }

  return {
    // {job: 'extract' | 'export', options, name, memory, cap, download}: the codec's result, the
    // size and where it is ('download': streamed to the user's Downloads, nothing kept here).
    async writeOutput({ job, options, name, memory, cap, download }, progress) {
      await output?.discard();
      output = null;
      const useOpfs = !memory && await opfsAvailable();
      const target = useOpfs ? await OpfsOutput.create(name) : new MemoryOutput(name, cap || MEMORY_CAP, download || null);
      output = target;
      const { inspector, Module } = await writer();
      // The scratch file lives as long as the writing (a worker stopped by Cancel leaves it to the
      // page, which removes it with the output: output-run.js).
      const scratch = job !== 'export' && useOpfs ? await OpfsOutput.create(scratchName(name)).catch(() => null) : null;
      let text;
      try {
        text = job === 'export' ? inspector.exportRows(JSON.stringify(options), sinkFor(target, Module), progress)
          : inspector.extract(JSON.stringify(options), sinkFor(target, Module, scratch), progress);
      } finally {
        await scratch?.discard();
      }
      /** @type {import('./types.js').OutputAnswer} */
      const result = JSON.parse(text);
      if (result.error && result.ok === undefined) result.ok = false;
      /** @type {{received: number, peakQueued: number} | null} */
      let streamed = null;
      if (result.ok && target instanceof MemoryOutput && target.stream) {
        try {
          streamed = target.endStream();
        } catch (error) {
          Object.assign(result, { ok: false, error: `the download could not be completed: ${why(error)}` });
        }
      }
      if (!result.ok) {
        await target.discard(); // as the CLI removes OUT: nothing half-written is offered
        output = null;
      }
      if (streamed) output = null; // nothing is kept here: it is in the user's Downloads
      const memoryFacts = target instanceof MemoryOutput
        ? { cap: target.cap, peakHeld: target.peakHeld, kept: target.kept, streamed, noStream: target.download?.refused ?? (target.download ? '' : 'this page offers no streamed download') }
        : {};
      return { result, size: target.size, storage: target.storage, ...memoryFacts };
    },

    // The finished output for the page: a File in OPFS (closed, so it can be read), or a Blob.
    async takeOutput() {
      if (!output) throw new Error('no output to take');
      const file = await output.finish();
      output = null;
      return file;
    },

    async discardOutput() {
      await output?.discard();
      output = null;
    },
  };
}
