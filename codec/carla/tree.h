// The structure tree of a CARLA log and its hex spans (tree.cpp), answered by CarlaInspector's tree
// members from the kept scan. Node ids: "header", "f<frame index>" for a complete frame,
// "p<packet offset>" for a packet, "r<packet offset>.<record index>" for one of its records, and
// "tail" for the bytes after the last complete frame. Packets are found by walking their frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "carla/decode.h"
#include "carla/model.h"
#include "carla/walker.h"
#include "core/byte_source.h"
#include "core/inspector.h"

namespace logscope::carla {

// Packets [first, first + count) of the frame in [begin, end).
std::vector<PacketRef> frame_packets(ByteSource& source, uint64_t begin, uint64_t end, uint64_t first, uint64_t count);
// The packet starting at `offset` inside the complete frames, if one does.
std::optional<PacketRef> packet_at(ByteSource& source, const ScanResult& scan, uint64_t offset);
// Reads and decodes a packet's payload; false (with out->error) when it is too large to read.
bool decode_at(ByteSource& source, const Variant& variant, const PacketRef& packet, DecodedPacket* out);
// The tree node of a packet: its name and size, and its records as children.
TreeNode packet_node(ByteSource& source, const Variant& variant, const PacketRef& packet);
// The index of the complete frame holding `offset`, or scan.frames.size().
size_t frame_containing(const ScanResult& scan, uint64_t offset);

}  // namespace logscope::carla
