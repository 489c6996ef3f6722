// Byte readers the worker hands to the codec: {size, name, read(offset, length) -> Uint8Array}.
// Reads are synchronous because the C++ ByteSource calls them synchronously; that is allowed
// in a worker (FileReaderSync for local files; synchronous XHR Range requests for remote ones
// later). The codec keeps its own read-ahead cache, so readers stay simple.

export function fileReader(file) {
  const sync = new FileReaderSync();
  return {
    kind: 'file',
    name: file.name,
    size: file.size,
    bytesRead: 0,
    read(offset, length) {
      const end = Math.min(this.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const buffer = sync.readAsArrayBuffer(file.slice(offset, end));
      this.bytesRead += buffer.byteLength;
      return new Uint8Array(buffer);
    },
  };
}

// Builds the reader for an `open` request's source description.
export function makeReader(source) {
  if (source.kind === 'file') return fileReader(source.file);
  throw new Error(`unsupported source kind: ${source.kind}`);
}
