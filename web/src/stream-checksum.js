// "Verify checksum" on a local file: the browser's own stream of the file (file.stream(), its
// fastest reader) pushed chunk by chunk into the codec's checksum (ChecksumFeed). Hashing one
// chunk overlaps the browser's reading of the next inside this one worker: no read-ahead worker
// and no shared memory, so it runs at the same speed where the page is not cross-origin isolated.
import { describeReadError } from './readers.js';

const MAX_PIECE = 16 << 20; // the most ChecksumFeed.buffer() hands out (wasm/bindings.cpp)

export async function streamChecksum(Module, feed, reader, progress) {
  const total = feed.covered();
  const stream = reader.file.slice(0, total).stream().getReader();
  let done = 0;
  let error = '';
  try {
    for (;;) {
      const { done: ended, value } = await stream.read();
      if (ended) break;
      for (let at = 0; at < value.length; at += MAX_PIECE) {
        const piece = value.subarray(at, at + MAX_PIECE);
        const pointer = feed.buffer(piece.length);
        Module.HEAPU8.set(piece, pointer); // looked up after buffer(): growing the heap replaces it
        feed.update(piece.length);
      }
      done += value.length;
      reader.bytesRead += value.length;
      reader.checksumStreamed = (reader.checksumStreamed || 0) + value.length;
      progress(done, total);
    }
  } catch (failure) {
    error = `stopped at byte ${done}: ${describeReadError(failure)}`;
  }
  return feed.finish(error);
}
