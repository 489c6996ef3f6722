// The files the cross-browser suite opens, made once per test file by our writers (the CLI's
// make-demo-*) and, for a protobuf MCAP, by @mcap/core's writer with a descriptor set from
// Debian's protoc: one file of each format, a rosbag2 folder, a text file that is no log.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapWriter } from '@mcap/core';
import { cli } from '../web/helpers.mjs';

const POSE_PROTO = `syntax = "proto3";
package logscope_browsers;
message Pose { string frame_id = 1; double x = 2; double y = 3; uint32 seq = 4; }
`;

// A Pose message in protobuf's wire format (fields 1-4, as protoc's encoder writes them).
export function poseBytes(i) {
  const frame = Buffer.from('base_link');
  const double = (tag, value) => { const b = Buffer.alloc(9); b[0] = tag; b.writeDoubleLE(value, 1); return b; };
  const varint = (n) => { const out = []; do { out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0)); n >>>= 7; } while (n); return Buffer.from(out); };
  return Buffer.concat([Buffer.from([0x0a, frame.length]), frame, double(0x11, poseX(i)), double(0x19, -i / 4), Buffer.from([0x20]), varint(i + 1)]);
}
export const poseX = (i) => 1.5 + i * 0.25;

async function writeProtobufMcap(path, dir) {
  writeFileSync(join(dir, 'pose.proto'), POSE_PROTO);
  const descriptors = join(dir, 'pose.desc');
  execFileSync('protoc', ['-I', dir, `--descriptor_set_out=${descriptors}`, '--include_imports', 'pose.proto']);
  const parts = [];
  let position = 0n;
  const writable = { position: () => position, write: async (data) => { parts.push(Buffer.from(data)); position += BigInt(data.byteLength); } };
  const writer = new McapWriter({ writable, chunkSize: 4096 });
  await writer.start({ profile: '', library: 'tests/browsers' });
  const schemaId = await writer.registerSchema({ name: 'logscope_browsers.Pose', encoding: 'protobuf', data: readFileSync(descriptors) });
  const channelId = await writer.registerChannel({ topic: '/pose', schemaId, messageEncoding: 'protobuf', metadata: new Map() });
  for (let i = 0; i < 50; i++) {
    const t = 1_767_225_600_000_000_000n + BigInt(i) * 100_000_000n;
    await writer.addMessage({ channelId, sequence: i, logTime: t, publishTime: t, data: poseBytes(i) });
  }
  await writer.end();
  writeFileSync(path, Buffer.concat(parts));
}

// Makes the files in a new temporary folder; returns their paths and a remove().
export async function makeFixtures() {
  const dir = mkdtempSync(join(tmpdir(), 'logscope-browsers-'));
  const make = (...args) => execFileSync(cli, args, { stdio: 'ignore' });
  const files = {
    bag: join(dir, 'husky.bag'),
    bddf: join(dir, 'spot.bddf'),
    bigBddf: join(dir, 'spot-24.bddf'), // past the read-ahead's 8 MB: a remote pass fetches it ahead
    carla: join(dir, 'town.log'),
    mcap: join(dir, 'rover.mcap'),
    protobuf: join(dir, 'pose.mcap'),
    text: join(dir, 'notes.txt'),
    bagFolder: join(dir, 'bag2'),
  };
  make('make-demo-rosbag', files.bag, '--size-mb', '1', '--compression', 'lz4');
  make('make-demo-bddf', files.bddf, '--size-mb', '1');
  make('make-demo-bddf', files.bigBddf, '--size-mb', '24');
  make('make-demo-carla', files.carla, '--size-mb', '1');
  make('make-demo-mcap', files.mcap, '--size-mb', '1', '--compression', 'none', '--chunk-kb', '64');
  make('make-demo-rosbag2', files.bagFolder, '--size-mb', '1');
  files.db3 = join(files.bagFolder, readdirSync(files.bagFolder).find((n) => n.endsWith('.db3')));
  await writeProtobufMcap(files.protobuf, dir);
  writeFileSync(files.text, 'not a log\n');
  mkdirSync(join(dir, 'out'));
  return { dir, files, out: join(dir, 'out'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
