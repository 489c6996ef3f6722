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
/** @typedef {{topic?: string, type?: string, series?: number, channel?: string, columns: PlotColumn[], units: QueryUnits}} ColumnsResult */
/**
 * mode "points": every row (t, values per column); mode "buckets": per bucket its index, row count,
 * first and last time, and per column the first, last, min and max value (null: none).
 * @typedef {{t0_ns: DecimalNs, t1_ns: DecimalNs, columns: string[], count: number, mode: 'points'|'buckets',
 *   t?: number[], values?: (number|null)[][], buckets?: number, bucket_ns?: number, bucket?: number[],
 *   bucket_count?: number[], t_first?: number[], t_last?: number[], first?: (number|null)[][], last?: (number|null)[][],
 *   min?: (number|null)[][], max?: (number|null)[][], cancelled?: boolean, problems: QueryProblem[],
 *   problem_count: number, units: QueryUnits}} PlotResult
 */
/** @typedef {{name: string, detail: string, total: number, in_range: number, counts: number[]}} TimelineRow */
/** @typedef {{t0_ns: DecimalNs, t1_ns: DecimalNs, bins: number, bin_ns: number, resolution: 'chunk'|'message'|'block'|'frame', rows: TimelineRow[], units: QueryUnits}} TimelineResult */

// ROS bags.
/**
 * Where it lies: V2.0 chunk_pos and offset_in_chunk, V1.x offset. message: the decoded message
 * (unit data), null with an error when it cannot be decoded.
 * @typedef {{topic: string, type: string, time: string, time_ns: DecimalNs, conn: number, size: number, message: any,
 *   error?: string, index: number, chunk_pos?: number, offset_in_chunk?: number, offset?: number}} BagMessage
 */
/** @typedef {{chunks_read: number, chunks_skipped: number, first: number, count: number, more: boolean, messages: BagMessage[], problems: QueryProblem[], units: QueryUnits}} MessagesResult */
/** @typedef {{id: number, topic: string, type: string, md5: string, callerid: string, latching: boolean, offset: number, message_definition: string}} BagConnection */
/** @typedef {{connections: BagConnection[], units: QueryUnits}} ConnectionsResult */
/** @typedef {{messages: number, message_bytes: number, chunks: number, compressed_bytes: number, cancelled: boolean, problems: number, units: QueryUnits}} IterateAllResult */

// BDDF.
/** @typedef {{timestamp_ns: DecimalNs, file_offset: number, additional_indexes: number[]}} BlockEntry */
/** @typedef {{series: number, total: number, first: number, entries: BlockEntry[], units: QueryUnits}} BlocksResult */
/** @typedef {{series: number, entry: number, timestamp_ns: DecimalNs, file_offset: number}} ExtractedBlock */
/** @typedef {{t0_ns: DecimalNs, t1_ns: DecimalNs, total: number, truncated: boolean, blocks: ExtractedBlock[], units: QueryUnits}} ExtractResult */
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
/** @typedef {{total: number, first: number, frames: CarlaFrame[], units: QueryUnits}} FramesResult */
/**
 * events: per frame with events, its created, parented and colliding records (unit data) and the
 * destroyed actor ids.
 * @typedef {{version: number, map: string, date: number, date_text: string, text_wording: string, frames: number,
 *   complete_frames: number, duration: number, events_truncated?: boolean,
 *   events: {frame: number, elapsed: number, create: any[], destroy: number[], parenting: any[], collisions: any[]}[],
 *   text?: string, units: QueryUnits}} FileInfoResult
 */
/** @typedef {{frames: number, duration: number, damage?: string, cancelled?: boolean, text?: string}} CarlaFooter frames: the last frame's id, as CARLA counts them */
/** @typedef {{frame: number, time: number, type1: string, id1: number|null, actor1: string, hero1: boolean, type2: string, id2: number|null, actor2: string, hero2: boolean}} Collision */
/** @typedef {CarlaFooter & {error?: string, collisions: Collision[], units: QueryUnits}} CollisionsResult */
/** @typedef {{time: number, id: number, actor: string, duration: number, until_end: boolean}} BlockedActor */
/** @typedef {CarlaFooter & {blocked: BlockedActor[], units: QueryUnits}} BlockedResult */
/**
 * One actor life; attributes are the file's (unit data); destroy_* and parent are null when none.
 * @typedef {{id: number, type: string, blueprint: string, role_name: string, attributes: Record<string, string>,
 *   spawn_frame: number, spawn_time: number, destroy_frame: number|null, destroy_time: number|null, parent: number|null, positions: number}} CarlaActor
 */
/** @typedef {{cancelled?: boolean, actors: CarlaActor[], text?: string, units: QueryUnits}} ActorsResult */
/**
 * Column arrays, one element per kept frame; location in cm, rotation in degrees, velocity (when
 * recorded) in cm/s, all of unit number.
 * @typedef {{actor: number, points: number, stride: number, cancelled?: boolean, frame: number[], time: number[],
 *   location: {x: number[], y: number[], z: number[]}, rotation: {roll: number[], pitch: number[], yaw: number[]},
 *   velocity?: {x: (number|null)[], y: (number|null)[], z: (number|null)[]}, note: string, units: QueryUnits}} TrajectoryResult
 */
/**
 * An actor life's path: f the frame indexes (0 = the first complete frame), x and y in cm.
 * @typedef {{id: number, type: string, blueprint: string, role_name: string, spawn_frame: number, spawn_index: number,
 *   destroy_frame: number|null, destroy_index: number|null, spawn: number[], f: number[], x: number[], y: number[]}} ActorPath
 */
/** @typedef {{cancelled?: boolean, frames: number, stride: number, points: number, note: string, actors: ActorPath[], units: QueryUnits}} PathsResult */
/** @typedef {{id: number, x: number, y: number, z: number, yaw: number}} ActorPosition */
/** @typedef {{index: number, id: number, elapsed: number, time_ns: DecimalNs, positions: ActorPosition[], units: QueryUnits}} PositionsResult */

// Node decodes (the record view): each format's own members, typed by `units`; the file's content
// (a message, a record header, CARLA records) is one value of unit data.
/** @typedef {Record<string, any> & {units: QueryUnits}} NodeDecode */

export {};
