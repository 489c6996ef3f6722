// The shapes that cross the page's boundaries, as JSDoc typedefs for `npm run typecheck` (tsc
// with checkJs, web/tsconfig.json): the wasm module (wasm/bindings.cpp) as the workers use it,
// web/worker.js's requests and answers, the report (docs/report.md), detection, tree nodes, spans,
// the file map, checksum answers, and the query results the page reads. Nothing runs here.
// Use: /** @typedef {import('./types.js').Report} Report */ (path relative to the module).
export {};

// ---- The wasm module (wasm/*.cpp, EMSCRIPTEN_BINDINGS) -----------------------------------------

/**
 * Long work reports (done, total); returning false cancels it (js_progress in wasm/bindings.cpp).
 * @typedef {(done: number, total: number) => boolean | void} ProgressFn
 */

/**
 * The codec's read callback: `(offset, length, pointer)`. It returns the bytes (fewer than asked
 * at the end of the file), or writes them into Module.HEAPU8 at `pointer` and returns the count.
 * @typedef {(offset: number, length: number, pointer: number) => Uint8Array | number | null} ReadFn
 */

/**
 * What extract and exportRows write through (wasm/output_jobs.h): pieces of the codec's memory.
 * @typedef {object} OutputSink
 * @property {string} error why the last call failed
 * @property {(pointer: number, length: number) => boolean} write
 * @property {(offset: number, pointer: number, length: number) => boolean} patch
 * @property {() => void} [willPatch] the codec will patch this output (asked before it writes)
 * @property {SpillSink} [spill] scratch storage for what a writer holds until the end (core/spill.h)
 */

/**
 * The page's scratch file for a writer (JsSpill in wasm/output_jobs.cpp).
 * @typedef {object} SpillSink
 * @property {string} error why the last call failed
 * @property {(offset: number, pointer: number, length: number) => boolean} write
 * @property {(offset: number, pointer: number, length: number) => boolean} read
 */

/**
 * A whole-file pass whose bytes the worker pushes in (WasmByteFeed in wasm/bindings.cpp).
 * @typedef {object} ByteFeed
 * @property {() => number} begin the first byte the pass wants
 * @property {() => number} end the byte after the last one
 * @property {(size: number) => number} buffer room in the heap for `size` bytes (0: none)
 * @property {(size: number) => void} update takes `size` bytes from buffer()
 * @property {(error: string) => string} finish the pass's answer as JSON text; `error`: why the stream ended early, or ''
 * @property {() => void} delete frees the C++ object
 */

/**
 * The embind `Inspector` (WasmInspector in wasm/bindings.cpp). Structured answers are JSON text:
 * the worker parses them (the types named are what the text holds).
 * @typedef {object} WasmInspector
 * @property {() => string} detection {@link Detection}
 * @property {() => boolean} known
 * @property {() => string} summary {@link Report}, or {@link CodecError}
 * @property {() => string} infoReportReads `[[offset, length], ...]`
 * @property {(offset: number, bytes: Uint8Array) => boolean} preload
 * @property {(fetch: ((flat: number[]) => (number | Uint8Array)[] | null) | null) => void} setRangeFetcher a pass's planned ranges, a window at a time
 * @property {(progress?: ProgressFn) => string} infoReport {@link Report}
 * @property {(progress?: ProgressFn) => string} check {@link Report}
 * @property {(progress?: ProgressFn) => string} checksum {@link ChecksumAnswer}
 * @property {() => ByteFeed | null} checksumFeed
 * @property {() => ByteFeed | null} scanFeed
 * @property {() => ByteFeed | null} checkFeed
 * @property {(fullCheck: boolean, progress?: ProgressFn) => string} fileMap {@link FileMap}
 * @property {(optionsJson: string) => string} infoText the text itself
 * @property {(id: string) => number} childCount
 * @property {(id: string, first: number, count: number) => string} children {@link TreeNode}[]
 * @property {(offset: number) => string} locate node ids, outermost first
 * @property {(offset: number, length: number) => string} spans {@link Span}[]
 * @property {(id: string) => string} decode {@link NodeDecode}, or {@link CodecError}
 * @property {(name: string, argsJson: string, progress?: ProgressFn) => string} query {@link QueryAnswer}
 * @property {(patternHex: string, from: number, backward: boolean, progress?: ProgressFn) => string} search {@link SearchAnswer}
 * @property {(optionsJson: string, sink: OutputSink, progress?: ProgressFn) => string} extract {@link OutputAnswer}; the full module's inspectors only (worker.js)
 * @property {(optionsJson: string, sink: OutputSink, progress?: ProgressFn) => string} exportRows {@link OutputAnswer}
 * @property {(schemas: WasmMessageSchemas) => void} [setMessageSchemas] the user's protobuf schemas; the full module's inspectors only
 * @property {() => string} readStats {@link CodecReadStats}
 * @property {() => void} delete frees the C++ object
 */

/**
 * A decompression helper's answer for one chunk (wasm/decompress_offload.cpp), and what
 * DecompressOffload.collect hands the codec.
 * @typedef {object} DecompressStatus
 * @property {boolean} ok
 * @property {string} code
 * @property {string} message
 * @property {boolean} checksum_present
 * @property {boolean} checksum_verified
 * @property {Uint8Array | null} [bytes] the chunk, when ok
 */

/**
 * decompressChunk's answer: the chunk is a view of the helper's memory, valid until its next call.
 * @typedef {Omit<DecompressStatus, 'ok' | 'bytes'> & ({ok: true, bytes: Uint8Array} | {ok: false, bytes: null})} DecompressedChunk
 */

/**
 * What the codec calls on the page's decompression offload (JsDecompressOffload).
 * @typedef {object} DecompressOffloadApi
 * @property {() => number} freeSlots
 * @property {(ticket: number, compression: string, bytes: Uint8Array, uncompressedSize: number, verify: boolean) => boolean} submit
 * @property {(ticket: number) => boolean} ready
 * @property {(ticket: number) => DecompressStatus} collect
 * @property {(ticket: number) => void} forget
 */

/**
 * What the codec calls on the page's hashing offload (JsSha1Offload, wasm/hash_offload.cpp).
 * @typedef {object} Sha1OffloadApi
 * @property {() => boolean} begin
 * @property {(view: Uint8Array) => void} update
 * @property {() => {ok: true, hex: string} | {ok: false, error: string | null}} finish
 */

/**
 * The instantiated module (gen/logscope.mjs).
 * @typedef {object} LogscopeModule
 * @property {{new (size: number, read: ReadFn): WasmInspector, new (name: string, filesJson: string, read: (index: number, offset: number, length: number, pointer: number) => number): WasmInspector}} Inspector
 *   one file over its read function, or a log that is a folder (wasm/js_folder.h): its files as [{name, size}] and one read over them
 * @property {Uint8Array} HEAPU8 the codec's memory; replaced when it grows
 * @property {(megabytes: number) => void} prepareHeap
 * @property {(index: number) => boolean} warmUpFormat opens and summarises the small demo of the table's format at index (codec/warm_up.h)
 * @property {(offload: DecompressOffloadApi | null) => void} setDecompressOffload
 * @property {(offload: Sha1OffloadApi | null) => void} setSha1Offload
 * @property {(compression: string, uncompressedSize: number, verify: boolean) => DecompressedChunk} decompressChunk input from helperInput
 * @property {(size: number) => Uint8Array} helperInput a view of the helper's input buffer, `size` bytes
 * @property {(size: number) => void} sha1Update hashes `size` bytes of helperInput
 * @property {() => string} sha1Finish the hex digest; starts the next hash
 * @property {() => string} formats the format table as JSON text: {@link FormatEntry}[]
 * @property {new () => WasmMessageSchemas} [MessageSchemas] the full module's only (wasm/message_schemas.h)
 * @property {() => Uint8Array} [lastFrameBytes] the full module's only: a view of the heap holding the pixels or stored bytes of
 *   the frame the last images query answered (codec/views/image_query.h), valid until the next call
 * @property {new (name: string, filesJson: string, read: (index: number, offset: number, length: number, pointer: number) => number) => {next: () => string, delete: () => void}} FolderReadPlan
 *   a folder's first reads in waves, `[[file index, offset, length], ...]` (wasm/js_folder.h)
 */

/**
 * The embind `MessageSchemas` (wasm/message_schemas.h): sets added in order; each add answers JSON
 * text {ok, error?, description?, warnings?, types?}.
 * @typedef {object} WasmMessageSchemas
 * @property {(name: string, bytes: Uint8Array) => string} addDescriptorSet
 * @property {(name: string, files: [path: string, text: string][]) => string} addProtoFiles
 * @property {(name: string, files: [path: string, text: string][]) => string} addMsgFiles ROS 2 .msg files, paths below the chosen folder
 * @property {() => number} size
 * @property {() => void} delete
 */

/**
 * One set of the user's protobuf schemas as the page keeps it (schema-store.js) and hands it to
 * the codec worker: a descriptor set's bytes, or a folder's .proto files by import path.
 * @typedef {SchemaSetContent & {id: number}} SchemaSetData
 */
/** @typedef {{name: string, kind: 'descriptors', bytes: Uint8Array} | {name: string, kind: 'protos' | 'msgs', files: [path: string, text: string][]}} SchemaSetContent */

/**
 * What loading one set gave (src/schema-loading.js): its message types, or why it failed (the
 * importer's errors as file:line:column lines).
 * @typedef {object} SchemaSetLoad
 * @property {number} id
 * @property {string} name
 * @property {boolean} ok
 * @property {string | null} error
 * @property {string} description
 * @property {string[]} warnings
 * @property {string[]} types
 */

/**
 * The default export of gen/logscope.mjs (MODULARIZE, EXPORT_NAME=createLogscope).
 * @typedef {(options?: {wasmBinary?: Uint8Array, locateFile?: (path: string) => string,
 *   instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object}) => Promise<LogscopeModule>} LogscopeFactory
 */

// ---- Detection (core/detect.h) ----------------------------------------------------------------

/**
 * @typedef {object} Detection
 * @property {string} family "bddf", "rosbag", "carla" or "unknown"
 * @property {string} version "2.0", "1.2", "1.1" for bags; "" otherwise
 * @property {string} label e.g. "ROS bag V2.0"
 * @property {string} kind for unknown files: "empty", "html", "lfs-pointer", "gzip"...
 * @property {string} diagnosis a sentence a user can act on
 * @property {string} first_bytes_hex up to 16 bytes
 */

// ---- The format table (core/format_table.h) and a format's page module -------------------------

/**
 * One format's entry of the codec's format table (`Module.formats()`, FormatEntry::to_json): what
 * the page knows of a format without naming it. The worker hands the open file's to the page
 * (`Opened.format`, `Session.format`).
 * @typedef {object} FormatEntry
 * @property {string} name the detection's family, the report's format, the page module's name (data-views/<name>.js)
 * @property {string} label short, for tables and messages ("ROS bag")
 * @property {string} summary one line: versions, compressions
 * @property {string[]} endings file names that are logs of this format (".bag", ".bag.active")
 * @property {('export' | 'extract' | 'repair' | 'plot')[]} operations what it can do beyond reading and checking
 * @property {{one: string, many: string}} source what export and extract select: "topic" / "topics"
 * @property {{name: string, help: string, choices: string[]}[]} extract_options beyond sources and range; the first choice is the default ('' keeps the input's)
 * @property {string} extract_summary what extract writes, in one sentence (`code` in backticks)
 * @property {string} repair_summary what repair keeps, in one sentence
 * @property {('decompress' | 'hash')[]} helpers the helper workers its whole-file passes may use
 * @property {'file' | 'folder'} shape what one log is made of
 * @property {'view' | 'full'} module which wasm module reads it: the view module (first visit) or the full module, loaded on first use (worker.js)
 * @property {FolderRule} [folder_rule] shape 'folder': the file names that make a folder one log
 */

/**
 * The file names that make a folder one log of a format (FolderRule in codec/core/format_table.h):
 * the page reads every folder format's from gen/folder-rules.js, written by the build from the
 * CLI's table (scripts/write-folder-rules.mjs), and applies it as the codec does (folder-open.js).
 * @typedef {object} FolderRule
 * @property {string} [format] the format's name (in gen/folder-rules.js)
 * @property {string[]} names a file of exactly this name ("metadata.yaml")
 * @property {string[]} endings a file whose name ends so (".db3")
 * @property {string[]} companions a file beside one named as it plus this ("-wal"), itself not so named
 * @property {string[]} split_endings splits named `<folder>_<N><ending>`, N decimal without a leading zero
 * @property {number} split_digits at most this many digits in N
 */

/**
 * Something export, extract or plot chooses from (a topic, a series, an actor), as a format's
 * module lists it (data-views/index.js).
 * @typedef {object} FormatSource
 * @property {string} key the <option> or checkbox value
 * @property {string | number} id the query's and the export's argument
 * @property {string} label a checkbox's or the plot list's text
 * @property {string} [name] a readable name for file names and messages (a topic, a channel)
 * @property {string} [note] beside a checkbox
 * @property {string} [option] a select's text
 * @property {number} [count] its messages (the plot looks at the busiest first)
 * @property {boolean} [message] its columns are learned from every message (protobuf, JSON), not a definition (see FormatPage.slowColumns)
 */

/** A unit a convention sets for a field whose file stores none (REP 103 for bags). @typedef {{unit: string, convention: string, why?: string}} ConventionalUnit */

/**
 * A Data tab view: `name` is the #panel-data[data-loaded] value once loaded; render builds it
 * into view.root with h().
 * @typedef {{name: string, render: (view: import('./data-views/common.js').DataViewContext) => unknown}} DataView
 */

/**
 * What a plot card a format's module adds (plotCard) may ask of the plot: sources found by its
 * own pass, and a source to plot.
 * @typedef {{setSources: (list: FormatSource[], preferred?: string | number | null) => void, pick: (key: string) => void}} PlotControl
 */

/**
 * A format's own page code, `data-views/<name>.js` (data-views/index.js says what each part is
 * for); every part is optional, and a format without a module is `{}`.
 * @typedef {object} FormatPage
 * @property {DataView[]} [views]
 * @property {(summary: Report) => FormatSource[]} [sources]
 * @property {(summary: Report) => FormatSource[]} [extractSources]
 * @property {(run: (query: string, args: QueryRequest['args']) => Promise<QueryAnswer>) => Promise<FormatSource[]>} [listSources]
 * @property {boolean} [numericSources]
 * @property {(summary: Report) => FormatSource[]} [plotSources]
 * @property {{id: string, render: (card: HTMLElement, parts: {session: import('./session.js').Session,
 *   view: import('./data-views/common.js').DataViewContext, signal: AbortSignal, plot: PlotControl}) => unknown}} [plotCard]
 * @property {(source: FormatSource & {arg: {[key: string]: JsonValue}}) => {[key: string]: JsonValue}} [columnsArgs]
 * @property {(columns: PlotColumn[]) => string[]} [defaultFields]
 * @property {string} [plotNote]
 * @property {string} [exportNote]
 * @property {(name: string) => ConventionalUnit | null} [conventionalUnit]
 * @property {(summary: Report) => string[]} [messageTypes] protobuf message types whose names need the user's schemas (schemas.js)
 * @property {(summary: Report) => string[]} [messageDefinitions] ROS 2 message types the log stores no definition for, decoded with the user's .msg files (schemas.js)
 * @property {(summary: Report) => boolean} [embeddedSchemas] the file carries protobuf schemas, read by name in the full module
 * @property {(source: FormatSource) => boolean} [slowColumns] the source's columns are learned from every message: asked in the job worker, with progress
 * @property {{[key: string]: {note?: string, cost?: string, ask?: string, again?: string}}} [laterReading] the format's words for the read that fills in a later fact (fact-views.js DEFAULT_READING), by the first later key
 */

// ---- The report (docs/report.md, core/report.h) -----------------------------------------------

/** @typedef {'text' | 'flag' | 'count' | 'bytes' | 'offset' | 'id' | 'time_ns' | 'duration_ns' | 's' | 'unix_s' | 'hz' | 'ratio'} Unit */

/** A JSON value as the codec writes it. @typedef {null | boolean | number | string | JsonArray | JsonObject} JsonValue */
/** @typedef {JsonValue[]} JsonArray */
/** @typedef {{[key: string]: JsonValue}} JsonObject */

/**
 * The common facts. ns values are decimal strings (exact beyond 2^53), null when the file holds no time.
 * @typedef {object} FileFacts
 * @property {number} size_bytes
 * @property {string | null} start_ns
 * @property {string | null} end_ns
 * @property {string | null} duration_ns
 * @property {{[name: string]: number}} counts the first entry is the file's main unit
 */

/**
 * One format fact: its value in its unit (ns as decimal strings).
 * @typedef {object} Fact
 * @property {string} key
 * @property {JsonValue} value
 * @property {Unit} unit
 */

/**
 * A table of the summary: one value per column in each row, one unit per column.
 * @typedef {object} ReportTable
 * @property {string} name
 * @property {string[]} columns
 * @property {Unit[]} units
 * @property {JsonValue[][]} rows
 */

/** @typedef {'error' | 'warning' | 'info'} Severity */
/** @typedef {'recovery' | 'index' | 'checksum' | 'structure' | 'content' | 'cancelled'} ProblemCategory */

/**
 * @typedef {object} Problem
 * @property {Severity} severity
 * @property {ProblemCategory} category
 * @property {number} offset the byte the problem is about
 * @property {string} code stable, `format.area.what`
 * @property {string} message
 */

/**
 * How a damaged file was read (null in the report when it was read normally).
 * @typedef {object} Recovery
 * @property {string} reason the format's own
 * @property {string} message one sentence for people
 * @property {number} ends_at the first byte not recovered
 * @property {{[name: string]: number}} recovered
 */

/**
 * The report: summary(), infoReport() and check() give it.
 * @typedef {object} Report
 * @property {string} format "bddf", "rosbag", "carla"
 * @property {string} format_label
 * @property {FileFacts} file
 * @property {Fact[]} facts
 * @property {string[]} later fact keys that infoReport() fills in
 * @property {ReportTable[]} tables
 * @property {Problem[]} problems
 * @property {Recovery | null} recovery
 * @property {ReportDetails} details format-specific data for scripts
 * @property {string} [status] a fed check that did not get every byte: "incomplete" (its other fields absent)
 * @property {string} [error] set instead of everything else when the codec could not answer
 */

/**
 * `details`: format-specific; its keys may change. The page reads only the checksum the check put there.
 * @typedef {{checksum?: ChecksumAnswer, [key: string]: unknown}} ReportDetails
 */

/** The codec's answer when there is no file to ask (unknown format). @typedef {{error: string}} CodecError */

// ---- Checksums ---------------------------------------------------------------------------------

/**
 * checksum(): BDDF's SHA1 (bddf/checksum.cpp), a bag's lz4 frame checksums (rosbag/doctor.cpp),
 * CARLA's none.
 * @typedef {object} ChecksumAnswer
 * @property {'valid' | 'mismatch' | 'absent' | 'none' | 'not_applicable' | 'cancelled' | 'incomplete'} status
 * @property {string} [message]
 * @property {string} [algorithm] "SHA1"
 * @property {string | null} [stored] hex digest
 * @property {string | null} [computed]
 * @property {number} [covered_bytes]
 * @property {number} [chunks_checked] bags
 * @property {string} [error] a fed pass that ended early, or no file to ask
 */

/**
 * What the page knows of the checksum (Session.checksum).
 * @typedef {{status: 'idle' | 'running'} | {status: 'done', result: ChecksumAnswer | {status: 'cancelled'}} | {status: 'error', error: string}} ChecksumState
 */

// ---- Structure: tree nodes, spans, the file map ------------------------------------------------

/**
 * A node of the structure tree (core/inspector.h TreeNode).
 * @typedef {object} TreeNode
 * @property {string} id
 * @property {string} label
 * @property {string} kind same vocabulary as Span.kind
 * @property {number} offset
 * @property {number} length
 * @property {number} child_count 0: a leaf
 */

/**
 * A named byte range; spans nest (core/report.h Span).
 * @typedef {object} Span
 * @property {number} offset
 * @property {number} length
 * @property {string} name
 * @property {string} kind "header", "index", "data"...
 * @property {Span[]} [children]
 */

/**
 * One step of `reveal`: the node, its parent's id and its index among the parent's children.
 * @typedef {{id: string, parent: string, index: number}} RevealStep
 */

/**
 * @typedef {object} MapRegion
 * @property {number} offset
 * @property {number} length
 * @property {string} kind header, descriptor, chunk, block, frame, index, trailer, padding, unreachable, damaged, missing
 * @property {string} label
 * @property {string} last_label the last structure's, when several were merged
 * @property {number} count structures merged into this run
 * @property {number[]} problems positions in FileMap.problems
 */

/**
 * What each byte range of a file is (core/file_map.h).
 * @typedef {object} FileMap
 * @property {number} file_size
 * @property {string} source "index", "scan" or "check"
 * @property {MapRegion[]} regions
 * @property {Problem[]} problems
 * @property {string} [error] no map could be made
 */

// ---- web/worker.js: requests and answers -------------------------------------------------------

/**
 * A file on an HTTP(S) server with Range support, as the probe found it (web/src/remote.js).
 * @typedef {object} RemoteFile
 * @property {true} remote
 * @property {string} url
 * @property {string} name
 * @property {number} size
 * @property {string | null} [etag]
 * @property {string | null} [lastModified]
 * @property {string[]} [hidden] validators the server hides from this origin (header names)
 * @property {Uint8Array} [head] the file's first bytes, read by the probe
 */

/**
 * A file of a log that is a folder (a rosbag2 bag: web/src/folder-open.js): a local File, or a
 * remote one read by Range.
 * @typedef {{name: string, file: File | import('./readers.js').MemoryFile, url?: undefined} | {name: string, url: string, size: number, etag?: string | null, lastModified?: string | null, file?: undefined}} BagFolderFile
 */
/**
 * A log that is a folder, opened as one: its name, total size and files.
 * @typedef {{name: string, size: number, bag: {files: BagFolderFile[]}, remote?: undefined, webkitRelativePath?: undefined}
 *   | {remote: true, url: string, name: string, size: number, bag: {files: BagFolderFile[]}, etag?: null, lastModified?: null, hidden?: string[]}} BagFolder
 */

/**
 * A file the page read for a worker that cannot read it (worker-client.js copyOf): its bytes, in
 * pieces, transferred to the worker (readers.js MemoryFile holds them there).
 * @typedef {{name: string, size: number, lastModified: number, pieces: ArrayBuffer[]}} FileCopy
 */

/** What a worker opens (a worker's own copy of a file is a MemoryFile). @typedef {{kind: 'file', file: File | import('./readers.js').MemoryFile} | {kind: 'url', url: string, name: string, size: number, etag?: string | null, lastModified?: string | null, head?: Uint8Array} | {kind: 'folder', name: string, files: BagFolderFile[]}} Source */

/**
 * Bytes the codec asked for (WasmInspector.read_stats).
 * @typedef {object} CodecReadStats
 * @property {number} bytes_read
 * @property {number} read_calls
 * @property {number} size
 * @property {number} preloaded_bytes
 * @property {number} plan_windows windows of planned ranges fetched at once (a plot's, an export's)
 * @property {number} plan_ranges_fetched the ranges in them
 */

/**
 * readStats: the codec's counts and the worker's own (reader, feeds, helpers).
 * @typedef {CodecReadStats & {
 *   reader_bytes: number, reader_requests: number, reader_read_ms: number, reader_fetched_ahead: number, scattered_reads: number,
 *   read_ahead: boolean, read_ahead_ring_bytes: number, read_ahead_bytes: number, read_ahead_waited_ms: number,
 *   checksum_streamed_bytes: number, checksum_feeder: boolean, scan_streamed_bytes: number, scan_feeder: boolean,
 *   check_streamed_bytes: number, check_feeder: boolean,
 *   chunks_offloaded: number, offload_helpers: number, offload_memory: number, offload_busy_ms: number, offload_waited_ms: number,
 *   hash_offloaded_bytes: number, hash_memory: number, hash_busy_ms: number, hash_waited_ms: number, wasm_memory: number,
 *   full_memory: number,
 * }} ReadStats
 */

/**
 * `open`'s answer.
 * @typedef {object} Opened
 * @property {Detection} detection
 * @property {boolean} known
 * @property {FormatEntry | null} format the format table's entry, null for an unknown file
 * @property {number} size
 * @property {string} name
 * @property {number} openMs
 * @property {CodecReadStats} readStats
 */

/** @typedef {{found: boolean, cancelled: boolean, offset?: number, error?: string}} SearchAnswer */

/**
 * A batch row's fields from one file's check (web/src/batch/result.js rowFields).
 * @typedef {object} RowFields
 * @property {boolean} known
 * @property {string} family
 * @property {string} kind
 * @property {string} format
 * @property {string} short the format table's label ("ROS bag"), '' for an unknown file
 * @property {boolean} logName the path ends as a log of some format does (batch/result.js hasLogName)
 * @property {string} diagnosis
 * @property {string} [version]
 * @property {string} [versionNote]
 * @property {string | null} [startNs]
 * @property {string | null} [durationNs]
 * @property {{[name: string]: number}} [counts]
 * @property {number} [errors]
 * @property {number} [warnings]
 * @property {number} [notes]
 * @property {{severity: Severity, code: string, offset: number, message: string}[]} [problems]
 * @property {{status: string, algorithm: string, message: string} | null} [checksum]
 * @property {string} [recovery]
 */

/** `checkFile`'s answer: the row and the file's `check --json` line. @typedef {RowFields & {line: Blob}} CheckedFile */

/**
 * extract (extract, repair) and exportRows (wasm/output_jobs.h); the codec's fields as they come.
 * @typedef {object} OutputAnswer
 * @property {boolean} [ok]
 * @property {string} [error]
 * @property {boolean} [cancelled]
 * @property {number} [bytes_written]
 * @property {{[name: string]: number}} [kept] extract
 * @property {{[name: string]: number}} [dropped] extract
 * @property {number} [rows] export
 * @property {string[]} [json_columns] export
 * @property {{code: string, message: string, offset?: number}[]} [problems] export
 */

/**
 * `writeOutput`'s answer: the codec's, the size written and where ('download': streamed to the
 * user's Downloads, web/src/download-stream.js). Without OPFS also: the memory cap, the most bytes
 * held at once, why an output past the cap was not streamed (kept), why none could be (noStream)
 * and what the service worker counted of a streamed one.
 * @typedef {{result: OutputAnswer, size: number, storage: 'opfs' | 'memory' | 'download', cap?: number, peakHeld?: number, kept?: string,
 *   noStream?: string, streamed?: {received: number, peakQueued: number} | null}} WrittenOutput
 */

/**
 * The written file's check (output-check.js), or why there is none; `memory`: the peak WebAssembly
 * memory of the worker that checked it.
 * @typedef {{error: string} | {format: string, checksum: string | null, counts: {[name: string]: number}, errors: number, warnings: number, problems: Problem[], memory: number}} OutputCheck
 */

/** extract's and export's options, as the CLI's arguments (wasm/output_jobs.h). @typedef {{[key: string]: JsonValue}} OutputOptions */

/** A query's name and arguments; 64-bit integers (ns) as decimal strings (Int64Arg). @typedef {{name: string, args?: {[key: string]: JsonValue} | null}} QueryRequest */

/**
 * Every request of web/worker.js: its arguments and its answer (`call(op, args)` on a
 * WorkerClient resolves to `result`).
 * @typedef {object} WorkerOps
 * @property {{args: {source: Source, full?: boolean}, result: Opened}} open
 * @property {{args: {}, result: Report}} summary a Report, or one with only `error`
 * @property {{args: {}, result: Report}} infoReport
 * @property {{args: {}, result: Report}} check
 * @property {{args: {fullCheck?: boolean}, result: FileMap}} fileMap
 * @property {{args: {}, result: ChecksumAnswer}} checksum
 * @property {{args: {source: Source, path: string}, result: CheckedFile}} checkFile
 * @property {{args: {options?: {path?: string, all?: boolean, freq?: boolean}}, result: string}} infoText
 * @property {{args: {id: string}, result: number}} childCount
 * @property {{args: {id: string, first: number, count: number}, result: TreeNode[]}} children
 * @property {{args: {offset: number}, result: string[]}} locate
 * @property {{args: {offset: number}, result: RevealStep[]}} reveal
 * @property {{args: {offset: number, length: number}, result: Span[]}} spans
 * @property {{args: {offset: number, length: number}, result: Uint8Array}} bytes
 * @property {{args: {id: string}, result: NodeDecode | CodecError}} decode
 * @property {{args: QueryRequest, result: QueryAnswer}} query the parsed answer (the caller names its result type)
 * @property {{args: QueryRequest, result: QueryAnswer}} fullQuery the same, by the full module (a view's query loaded on first use)
 * @property {{args: {args: {[key: string]: JsonValue}}, result: {answer: QueryAnswer, bytes: Uint8Array<ArrayBuffer>}}} imageFrame the images query by the full
 *   module, with the frame's pixels (RGBA, then depth values as float32) or stored bytes
 * @property {{args: {hex: string, from: number, backward: boolean}, result: SearchAnswer}} search
 * @property {{args: {}, result: ReadStats}} readStats
 * @property {{args: {}, result: void}} prepareOutputs fetches the code that writes outputs (output-job.js and the full module)
 * @property {{args: {job: 'extract' | 'export', options: OutputOptions, name: string, memory: boolean, cap?: number,
 *   download?: import('./output-job.js').DownloadOffer | null}, result: WrittenOutput}} writeOutput
 * @property {{args: {}, result: File | Blob}} takeOutput
 * @property {{args: {}, result: void}} discardOutput
 * @property {{args: {sets: SchemaSetData[]}, result: {loads: SchemaSetLoad[], applied: boolean}}} useSchemas read the file in the full module with these protobuf schemas
 */

/** @typedef {keyof WorkerOps} WorkerOp */

/**
 * What a caught error may carry: an Error, a DOMException, a worker's error with its `code`
 * (ChangedError...), or anything else thrown (code reading it falls back to String(error)).
 * @typedef {{name?: string, message?: string, code?: string | null}} ErrorLike
 */

/**
 * The `configure` request (worker-client.js spawn): the cores a pass may use, whether helper
 * workers may be started and how long each has to start, whether one may start ahead of need now
 * (else the page sends `prepareHelpers` once it has loaded), whether the view module's heap is
 * grown while no file is open (`prepareHeap`), and the tests' hooks.
 * @typedef {{cores: number, helpers?: boolean, helperStartMs?: number, prepareHelpers?: boolean, prepareHeap?: boolean,
 *   test?: {freezeOnHelperStart?: boolean, workerCannotRead?: boolean}, codecFromPage?: boolean}} WorkerConfig
 */

/**
 * What the page posts: a request, or one of the answerless ops (configure, prepareHelpers, warmUp, warmPasses, __crash__, __hang__).
 * @typedef {{id: number, op: string, args?: unknown}} WorkerRequest
 */

/**
 * What the worker posts back: progress, an answer, or an error (`fatal`: the module is unusable),
 * or a request for the page's copy of a file it cannot read (needCopy, answered with op fileCopy).
 * @typedef {{id: number, progress: {done: number, total: number, memory?: number}, needCopy?: undefined}
 *   | {id: number, needCopy: true, progress?: undefined}
 *   | {id: number, ok: true, result: unknown, progress?: undefined, needCopy?: undefined}
 *   | {id: number, ok: false, error: string, fatal?: boolean, code?: string | null, progress?: undefined, needCopy?: undefined}} WorkerReply
 */
/**
 * What the worker posts besides replies (web/src/helper-start.js): what may block next (a
 * helper's start), a notice for the page (a slower path), a heartbeat.
 * @typedef {{doing: string | null, helper: boolean, notice?: undefined, beat?: undefined}
 *   | {notice: string, doing?: undefined, beat?: undefined}
 *   | {beat: true, doing?: undefined, notice?: undefined}} WorkerSignal
 */

// ---- Query results ----
// What the codec's queries (FormatInspector::query, the worker's 'query' op) and node decodes
// (the worker's 'decode' op) answer, and the arguments the page sends (docs/report.md, "Query
// results"). Every answer that is not a bare {error} carries `units`: the unit of each value by
// its path (member names from the top joined by ".", arrays adding nothing). ns values are exact
// decimal strings both ways; compute with them as BigInt.

/** @typedef {string} DecimalNs ns since the epoch (unit time_ns) or a duration in ns (duration_ns), as exact decimal digits */
/** @typedef {string | number} Int64Arg a 64-bit argument: its decimal digits (what the page sends for ns) or a JSON integer */
/**
 * Path -> unit: the report's units (text, flag, count, bytes, offset, id, time_ns, duration_ns, s,
 * unix_s, hz, ratio) and the query results' own: number (as the file records it), ns (ns as a
 * number: after a range's t0_ns, a bin's width), data (the file's own content as one value).
 * @typedef {Record<string, string>} QueryUnits
 */
/** @typedef {{error: string}} QueryError an answer that is only an error: no units */
/**
 * Any query's answer, before its caller names the query's result type (the worker's `query` op,
 * DataViewContext.run): its units, or only an error. Every result below is one of these too, so
 * each may be `{error}` instead and the page checks `result.error` first.
 * @typedef {{error?: string, units?: QueryUnits}} QueryAnswer
 */
/**
 * A view's answer from a walk read a slice of time at a time (its `slice_ms`: docs/views.md): while
 * it reads on, `reading` says how far; the page asks again (DataViewContext.readOn).
 * @typedef {{first_ns: DecimalNs, through_ns: DecimalNs, last_ns: DecimalNs}} ReadingSoFar
 * @typedef {QueryAnswer & {cancelled?: boolean, reading?: ReadingSoFar}} ReadOnAnswer
 */
/** @typedef {{severity: string, category: string, offset: number, code: string, message: string}} QueryProblem */

// Arguments.
/** @typedef {{t0_ns?: Int64Arg, t1_ns?: Int64Arg}} RangeArgs from, to (inclusive), ns since the epoch */
/** @typedef {RangeArgs & {bins?: number}} TimelineArgs */
/** @typedef {{topic: string} | {series: number} | {}} ColumnsArgs a bag topic, a BDDF series, nothing for CARLA */
/** @typedef {RangeArgs & {topic?: string, series?: number, actor?: number, fields: string, max_points?: number, buckets?: number}} PlotArgs */
/** @typedef {RangeArgs & {topic?: string, first?: number, count?: number, preview?: number}} MessagesArgs bag */
/** @typedef {{verify_checksums?: boolean}} IterateAllArgs bag */
/** @typedef {{series: number, first?: number, count?: number}} BlocksArgs BDDF */
/** @typedef {{series?: number | number[], t0_ns?: Int64Arg, t1_ns?: Int64Arg, max?: number}} ExtractArgs BDDF */
/** @typedef {{offset: Int64Arg, max_items?: number}} BlockArgs BDDF */
/** @typedef {{first?: number, count?: number}} FramesArgs CARLA */
/** @typedef {{text?: boolean, all?: boolean}} FileInfoArgs CARLA */
/** @typedef {{type1?: string, type2?: string}} CollisionsArgs CARLA: h, v, w, t, o or a */
/** @typedef {{min_time?: number, min_distance?: number}} BlockedArgs CARLA: seconds, centimetres */
/** @typedef {{text?: boolean}} ActorsArgs CARLA */
/** @typedef {{actor: number}} TrajectoryArgs CARLA */
/** @typedef {{max_points?: number}} PathsArgs CARLA */
/** @typedef {{frame: number}} PositionsArgs CARLA: a frame index */

// Every format: columns, plot, timeline.
/** @typedef {{name: string, kind: 'number'|'bool'|'text'|'json', unit?: string}} PlotColumn unit: the file's physical unit (text), where it says */
/** @typedef {QueryAnswer & {topic?: string, type?: string, series?: number, channel?: string, columns: PlotColumn[], units: QueryUnits}} ColumnsResult */
/**
 * mode "points": every row (t, values per column); mode "buckets": per bucket its index, row count,
 * first and last time, and per column the first, last, min and max value (null: none).
 * @typedef {QueryAnswer & {t0_ns: DecimalNs, t1_ns: DecimalNs, columns: string[], count: number, mode: 'points'|'buckets',
 *   t?: number[], values?: (number|null)[][], buckets?: number, bucket_ns?: number, bucket?: number[],
 *   bucket_count?: number[], t_first?: number[], t_last?: number[], first?: (number|null)[][], last?: (number|null)[][],
 *   min?: (number|null)[][], max?: (number|null)[][], cancelled?: boolean, problems: QueryProblem[],
 *   problem_count: number, units: QueryUnits, sampled?: {chunks_read: number, chunks: number}, chunks?: {read: number, in_range: number}}} PlotResult
 */
/** @typedef {{name: string, detail: string, total: number, in_range: number, counts: number[]}} TimelineRow */
/** @typedef {QueryAnswer & {t0_ns: DecimalNs, t1_ns: DecimalNs, bins: number, bin_ns: number, resolution: 'chunk'|'message'|'block'|'frame', rows: TimelineRow[], units: QueryUnits}} TimelineResult */

// ROS bags.
/**
 * Where it lies: V2.0 chunk_pos and offset_in_chunk, V1.x offset. message: the decoded message
 * (unit data), null with an error when it cannot be decoded.
 * @typedef {{topic: string, type: string, time: string, time_ns: DecimalNs, conn: number, size: number, message: any,
 *   error?: string, index: number, chunk_pos?: number, offset_in_chunk?: number, offset?: number}} BagMessage
 */
/** @typedef {QueryAnswer & {chunks_read: number, chunks_skipped: number, first: number, count: number, more: boolean, messages: BagMessage[], problems: QueryProblem[], units: QueryUnits}} MessagesResult */
/** @typedef {{id: number, topic: string, type: string, md5: string, callerid: string, latching: boolean, offset: number, message_definition: string}} BagConnection */
/** @typedef {QueryAnswer & {connections: BagConnection[], units: QueryUnits}} ConnectionsResult */
/** @typedef {QueryAnswer & {messages: number, message_bytes: number, chunks: number, compressed_bytes: number, cancelled: boolean, problems: number, units: QueryUnits}} IterateAllResult */

// BDDF.
/** @typedef {{timestamp_ns: DecimalNs, file_offset: number, additional_indexes: number[]}} BlockEntry */
/** @typedef {QueryAnswer & {series: number, total: number, first: number, entries: BlockEntry[], units: QueryUnits}} BlocksResult */
/** @typedef {{series: number, entry: number, timestamp_ns: DecimalNs, file_offset: number}} ExtractedBlock */
/** @typedef {QueryAnswer & {t0_ns: DecimalNs, t1_ns: DecimalNs, total: number, truncated: boolean, blocks: ExtractedBlock[], units: QueryUnits}} ExtractResult */
/**
 * One block decoded (also a BDDF node's decode, with its kind and part): descriptor blocks as
 * `descriptor`, data blocks as `data_descriptor` and `payload` (POD samples and protobuf fields of
 * unit data). Its many optional members are listed in `units`.
 * @typedef {{offset: number, block_type?: string, kind?: string, part?: string, length?: number, error?: string,
 *   descriptor?: Record<string, any>, data_descriptor?: {series_index: number, timestamp_ns: DecimalNs, timestamp_iso: string, additional_indexes: number[]},
 *   payload?: Record<string, any>, units: QueryUnits} & Record<string, any>} BlockResult
 */

// CARLA.
/** @typedef {{index: number, id: number, elapsed: number, duration: number, offset: number, length: number, packets: number, has_events: boolean}} CarlaFrame */
/** @typedef {QueryAnswer & {total: number, first: number, frames: CarlaFrame[], units: QueryUnits}} FramesResult */
/**
 * events: per frame with events, its created, parented and colliding records (unit data) and the
 * destroyed actor ids.
 * @typedef {QueryAnswer & {version: number, map: string, date: number, date_text: string, text_wording: string, frames: number,
 *   complete_frames: number, duration: number, events_truncated?: boolean,
 *   events: {frame: number, elapsed: number, create: any[], destroy: number[], parenting: any[], collisions: any[]}[],
 *   text?: string, units: QueryUnits}} FileInfoResult
 */
/** @typedef {{frames: number, duration: number, damage?: string, cancelled?: boolean, text?: string}} CarlaFooter frames: the last frame's id, as CARLA counts them */
/** @typedef {{frame: number, time: number, type1: string, id1: number|null, actor1: string, hero1: boolean, type2: string, id2: number|null, actor2: string, hero2: boolean}} Collision */
/** @typedef {QueryAnswer & CarlaFooter & {error?: string, collisions: Collision[], units: QueryUnits}} CollisionsResult */
/** @typedef {{time: number, id: number, actor: string, duration: number, until_end: boolean}} BlockedActor */
/** @typedef {QueryAnswer & CarlaFooter & {blocked: BlockedActor[], units: QueryUnits}} BlockedResult */
/**
 * One actor life; attributes are the file's (unit data); destroy_* and parent are null when none.
 * @typedef {{id: number, type: string, blueprint: string, role_name: string, attributes: Record<string, string>,
 *   spawn_frame: number, spawn_time: number, destroy_frame: number|null, destroy_time: number|null, parent: number|null, positions: number}} CarlaActor
 */
/** @typedef {QueryAnswer & {cancelled?: boolean, actors: CarlaActor[], text?: string, units: QueryUnits}} ActorsResult */
/**
 * Column arrays, one element per kept frame; location in cm, rotation in degrees, velocity (when
 * recorded) in cm/s, all of unit number.
 * @typedef {QueryAnswer & {actor: number, points: number, stride: number, cancelled?: boolean, frame: number[], time: number[],
 *   location: {x: number[], y: number[], z: number[]}, rotation: {roll: number[], pitch: number[], yaw: number[]},
 *   velocity?: {x: (number|null)[], y: (number|null)[], z: (number|null)[]}, note: string, units: QueryUnits}} TrajectoryResult
 */
/**
 * An actor life's path: f the frame indexes (0 = the first complete frame), x and y in cm.
 * @typedef {{id: number, type: string, blueprint: string, role_name: string, spawn_frame: number, spawn_index: number,
 *   destroy_frame: number|null, destroy_index: number|null, spawn: number[], f: number[], x: number[], y: number[]}} ActorPath
 */
/** @typedef {QueryAnswer & {cancelled?: boolean, frames: number, stride: number, points: number, note: string, actors: ActorPath[], units: QueryUnits}} PathsResult */
/** @typedef {{id: number, x: number, y: number, z: number, yaw: number}} ActorPosition */
/** @typedef {QueryAnswer & {index: number, id: number, elapsed: number, time_ns: DecimalNs, positions: ActorPosition[], units: QueryUnits}} PositionsResult */

// Node decodes (the record view): each format's own members, typed by `units`; the file's content
// (a message, a record header, CARLA records) is one value of unit data.
/** @typedef {Record<string, any> & {units: QueryUnits}} NodeDecode */

