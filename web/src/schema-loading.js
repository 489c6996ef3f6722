// The user's protobuf schemas loaded into the full module (wasm/message_schemas.h), in the
// codec worker: each set a descriptor set's bytes, a folder's .proto files or a folder's ROS 2 .msg
// files, searched in order.
// What each set gave (its types, the importer's errors as file:line:column lines) goes back to
// the page (schemas.js).

/** @typedef {import('./types.js').SchemaSetData} SchemaSetData */
/** @typedef {import('./types.js').SchemaSetLoad} SchemaSetLoad */

/**
 * Loads `sets` into a new MessageSchemas of `Module` (the caller hands it to an inspector and
 * deletes it). A set that fails is left out and says why.
 * @param {import('./types.js').LogscopeModule} Module
 * @param {SchemaSetData[]} sets
 * @returns {{schemas: import('./types.js').WasmMessageSchemas, loads: SchemaSetLoad[]}}
 */
export function loadSchemaSets(Module, sets) {
  if (!Module.MessageSchemas) throw new Error('this codec module has no protobuf schemas (the full module has)');
  const schemas = new Module.MessageSchemas();
  /** @type {SchemaSetLoad[]} */
  const loads = [];
  for (const set of sets) {
    const text = set.kind === 'descriptors' ? schemas.addDescriptorSet(set.name, set.bytes)
      : set.kind === 'msgs' ? schemas.addMsgFiles(set.name, set.files) : schemas.addProtoFiles(set.name, set.files);
    /** @type {{ok: boolean, error?: string, description?: string, warnings?: string[], types?: string[]}} */
    const answer = JSON.parse(text);
    loads.push({ id: set.id, name: set.name, ok: answer.ok, error: answer.error ?? null, description: answer.description ?? '', warnings: answer.warnings ?? [], types: answer.types ?? [] });
  }
  return { schemas, loads };
}
