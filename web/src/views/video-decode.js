// CompressedVideo in the Images tab (views/images.js): the codec's images query hands over the
// encoded frames from the keyframe before the frame asked for (codec/views/video_query.h); the
// browser's WebCodecs VideoDecoder decodes them in order, configured from the stream (the codec
// string the codec read from the SPS or sequence header; isConfigSupported first), and the last
// decoded frame is the one shown. Where the browser has no WebCodecs, or not this codec, the
// problem names the codec.
// @logscope-first-use: fetched with the full module when its tab is first shown (build-dist.mjs).

/**
 * @typedef {{key: boolean, first_index: number, codec_string: string | null, run: {time_ns: string, bytes: number, key: boolean}[]}} VideoRun
 * @typedef {{code: string, message: string}} VideoProblem
 */

const NAMES = /** @type {Record<string, string>} */ ({ h264: 'H.264', h265: 'H.265 (HEVC)', vp9: 'VP9', av1: 'AV1' });

/** @param {string} format */
export const codecName = (format) => NAMES[format] || format;

/**
 * Decodes the run's frames; resolves to the last decoded frame (the caller closes it) or a problem.
 * @param {string} format h264, h265, vp9 or av1 @param {VideoRun} video @param {Uint8Array<ArrayBuffer>} bytes
 * @returns {Promise<{frame: VideoFrame} | {problem: VideoProblem}>}
 */
export async function decodeVideoRun(format, video, bytes) {
  const name = codecName(format);
  if (typeof VideoDecoder === 'undefined' || typeof EncodedVideoChunk === 'undefined')
    return { problem: { code: 'image.video.no_webcodecs', message: `this browser has no WebCodecs (VideoDecoder), so it cannot decode ${name} video` } };
  const codec = video.codec_string;
  if (!codec)
    return { problem: { code: 'image.video.no_config', message: `the ${name} keyframe carries no ${format === 'h264' || format === 'h265' ? 'SPS' : 'sequence header'} to configure a decoder from` } };
  const config = { codec, optimizeForLatency: true };
  let supported = false;
  try { supported = Boolean((await VideoDecoder.isConfigSupported(config)).supported); } catch { supported = false; }
  if (!supported) return { problem: { code: 'image.video.no_codec', message: `this browser cannot decode ${name} (codec ${codec}): its WebCodecs lacks this codec` } };
  /** @type {VideoFrame | null} */
  let last = null;
  /** @type {unknown} */
  let failure = null;
  const decoder = new VideoDecoder({
    output: (frame) => { last?.close(); last = frame; },
    error: (error) => { failure = error; },
  });
  try {
    decoder.configure(config);
    let at = 0;
    video.run.forEach((piece, i) => {
      const data = bytes.subarray(at, at + piece.bytes);
      at += piece.bytes;
      decoder.decode(new EncodedVideoChunk({ type: i === 0 ? 'key' : 'delta', timestamp: i, data }));
    });
    await decoder.flush();
  } catch (error) {
    failure = failure || error;
  } finally {
    if (decoder.state !== 'closed') decoder.close();
  }
  const frame = /** @type {VideoFrame | null} */ (last);
  if (failure || !frame) {
    frame?.close();
    const why = failure ? String(/** @type {Error} */ (failure)?.message || failure) : 'it gave no frame';
    return { problem: { code: 'image.video.decode', message: `this browser's ${name} decoder failed on the ${video.run.length} frames from the keyframe (${why})` } };
  }
  return { frame };
}
