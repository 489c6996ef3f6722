// Protobuf by name in wasm (the full and node modules: wasm/message_schemas.h): schemas loaded
// from a descriptor set (built here by Debian's protoc) and from the .proto text of a folder,
// then a writer-made BDDF's RobotState series exported and one block decoded by name, equal to
// what the native CLI gives with --descriptors / --proto-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadModule, openWithWasm, root, runCli } from './support.mjs';

const protoRoot = join(root, 'tests', 'fixtures', 'proto');
const TYPE = 'bosdyn.api.RobotState';
let dir, demo, descriptors;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'logscope-pbnamed-'));
  demo = join(dir, 'spot.bddf');
  assert.equal(runCli(['make-demo-bddf', demo, '--size-mb', '1']).status, 0);
  descriptors = join(dir, 'bosdyn.desc');
  execFileSync('protoc', ['-I', protoRoot, `--descriptor_set_out=${descriptors}`, '--include_imports',
    'bosdyn/api/robot_state.proto', 'bosdyn/api/data_buffer.proto']);
});
after(() => rmSync(dir, { recursive: true, force: true }));

// Every .proto file below `folder` as [import path, text].
function protoFiles(folder, base = folder) {
  const out = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...protoFiles(path, base));
    else if (name.endsWith('.proto')) out.push([relative(base, path).split('\\').join('/'), readFileSync(path, 'utf8')]);
  }
  return out;
}

// Opens the demo with schemas; fn(Module, wasm inspector, load answer).
async function withSchemas(add, fn) {
  const Module = await loadModule();
  const schemas = new Module.MessageSchemas();
  const wasm = await openWithWasm(demo);
  try {
    const answer = JSON.parse(add(schemas));
    wasm.inspector.setMessageSchemas(schemas);
    return await fn(Module, wasm.inspector, answer);
  } finally {
    schemas.delete();
    wasm.close();
  }
}

function exportText(Module, inspector, options) {
  const pieces = [];
  const sink = {
    error: '',
    write(pointer, length) { pieces.push(Buffer.from(Module.HEAPU8.subarray(pointer, pointer + length))); return true; },
    patch() { return false; },
  };
  const result = JSON.parse(inspector.exportRows(JSON.stringify(options), sink, null));
  assert.equal(result.ok, true, result.error);
  return Buffer.concat(pieces).toString('utf8');
}

const ways = {
  'a descriptor set': { add: (schemas) => schemas.addDescriptorSet('bosdyn.desc', readFileSync(descriptors)), cli: () => ['--descriptors', descriptors] },
  'a folder of .proto files': { add: (schemas) => schemas.addProtoFiles('proto', protoFiles(protoRoot)), cli: () => ['--proto-path', protoRoot] },
};

for (const [way, { add, cli }] of Object.entries(ways)) {
  test(`${way}: the RobotState series exports by name as the CLI does`, async () => {
    await withSchemas(add, async (Module, inspector, answer) => {
      assert.equal(answer.ok, true, answer.error);
      assert.ok(answer.types.includes(TYPE), `the set's types: ${answer.types.slice(0, 10).join(', ')}`);
      assert.deepEqual(answer.warnings, []);
      for (const format of ['csv', 'jsonl']) {
        const text = exportText(Module, inspector, { series: TYPE, format });
        const expected = runCli(['export', demo, '--series', TYPE, '--format', format, ...cli()]);
        assert.equal(expected.status, 0);
        assert.equal(text, expected.stdout, format);
        assert.match(text.split('\n')[0], /kinematic_state\.joint_states\[\d+\]\.position\.value/, 'named paths');
      }
    });
  });

  test(`${way}: a block decodes by name, as the CLI's blocks --decode`, async () => {
    await withSchemas(add, async (Module, inspector) => {
      const summary = JSON.parse(inspector.summary());
      const table = summary.tables.find((t) => t.name === 'series');
      const row = table.rows.find((r) => r[table.columns.indexOf('type')] === TYPE);
      const series = row[table.columns.indexOf('index')];
      const found = JSON.parse(inspector.query('extract', JSON.stringify({ series: [series], max: 1 }), null));
      const decoded = JSON.parse(inspector.query('block', JSON.stringify({ offset: found.blocks[0].file_offset }), null));
      assert.equal(decoded.payload.kind, 'protobuf', JSON.stringify(decoded.payload).slice(0, 300));
      const text = JSON.stringify(decoded.payload.message);
      assert.match(text, /"kinematic_state"/, 'field names');
      assert.match(text, /"motor_power_state":"STATE_[A-Z_]+"/, 'enums by name');
      const expected = runCli(['blocks', demo, '--series', String(series), '--max', '1', '--decode', ...cli()]);
      assert.equal(expected.status, 0);
      const cliBlock = JSON.parse(expected.stdout.split('\n')[0]);
      assert.deepEqual(decoded.payload.message, cliBlock.payload.message, 'the same message as the CLI decodes');
    });
  });
}

test('without schemas the same series exports by field number', async () => {
  const Module = await loadModule();
  const wasm = await openWithWasm(demo);
  try {
    const text = exportText(Module, wasm.inspector, { series: TYPE, format: 'csv' });
    assert.equal(text, runCli(['export', demo, '--series', TYPE, '--format', 'csv']).stdout);
    assert.doesNotMatch(text.split('\n')[0], /kinematic_state/);
  } finally {
    wasm.close();
  }
});

test('a .proto file that does not compile: its file:line:column in the answer', async () => {
  const Module = await loadModule();
  const schemas = new Module.MessageSchemas();
  try {
    const broken = JSON.parse(schemas.addProtoFiles('broken', [['a/broken.proto', 'syntax = "proto3";\npackage a;\nmessage M {\n  int32 x = ;\n}\n']]));
    assert.equal(broken.ok, false);
    assert.match(broken.error, /a\/broken\.proto:4:\d+: /, broken.error);
    const missing = JSON.parse(schemas.addProtoFiles('missing', [['a/b.proto', 'syntax = "proto3";\nimport "a/none.proto";\nmessage B {}\n']]));
    assert.equal(missing.ok, false);
    assert.match(missing.error, /a\/none\.proto/, missing.error);
    // One good file beside a broken one: a warning, the good one's types kept.
    const mixed = JSON.parse(schemas.addProtoFiles('mixed', [['ok.proto', 'syntax = "proto3";\nmessage Ok { double v = 1; }\n'], ['bad.proto', 'message {']]));
    assert.equal(mixed.ok, true, mixed.error);
    assert.deepEqual(mixed.types, ['Ok']);
    assert.match(mixed.warnings.join('\n'), /bad\.proto:1:\d+: /);
    const notASet = JSON.parse(schemas.addDescriptorSet('x.desc', new Uint8Array([0xff, 0xff, 0xff])));
    assert.equal(notASet.ok, false);
    assert.match(notASet.error, /^x\.desc: not a FileDescriptorSet/);
    assert.equal(schemas.size(), 1);
  } finally {
    schemas.delete();
  }
});
