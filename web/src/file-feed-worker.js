// The file feeder: a worker that only reads. It streams [start, end) of a File (file.stream(),
// the browser's fastest reader) and posts the chunks, gathered into batches of a few MB and
// transferred (not copied), to its creator. Because this worker does nothing else, the browser
// keeps reading while the creator works on the last batch; a worker that read and hashed in turn
// stalled the stream while it hashed. At most `window` bytes are in flight: the creator
// acknowledges what it has consumed, so memory stays bounded whatever the file size.
const BATCH = 4 << 20;

let acknowledged = 0;
let wake = null;

self.onmessage = ({ data }) => {
  if (typeof data === 'number') {
    acknowledged = data;
    wake?.();
    return;
  }
  feed(data);
};

async function feed({ file, start, end, window }) {
  let posted = start;
  let batch = [], bytes = 0;
  const flush = async () => {
    if (!bytes) return;
    self.postMessage({ chunks: batch }, batch.map((chunk) => chunk.buffer));
    posted += bytes;
    batch = [];
    bytes = 0;
    while (posted - start - acknowledged > window) await new Promise((resolve) => { wake = resolve; });
  };
  try {
    const stream = file.slice(start, end).stream().getReader();
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      // A chunk may be a view on a larger buffer: transfer only what is its own.
      batch.push(value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice());
      bytes += value.length;
      if (bytes >= BATCH) await flush();
    }
    await flush();
    self.postMessage({ done: true });
  } catch (failure) {
    await flush().catch(() => {});
    self.postMessage({ failed: { name: failure.name || 'Error', message: String(failure.message || failure) } });
  }
}
