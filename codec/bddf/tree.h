// The structure tree of a BDDF file and its hex spans (tree.cpp), answered by BddfInspector's tree
// members from the file-order block table (FileModel::blocks()). Node ids: "b<position>" for a
// block in the table, "b<position>/<part>" for one of its parts (header, descriptor, payload...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bddf/blocks.h"
#include "bddf/model.h"
#include "core/byte_source.h"

namespace logscope::bddf {

std::string block_id(size_t position);
// "b12" -> 12 and ""; "b12/payload" -> 12 and "payload"; false when it is no block id.
bool parse_block_id(const std::string& id, size_t* position, std::string* part);

// A part of a block as the tree and the hex view show it.
struct BlockPart {
  std::string name;   // in the node id
  std::string label;
  std::string kind;   // header, descriptor, data, index, trailer
  uint64_t offset, length;
};

// The on-disk extent of a block in the table, and its parts (read from its header).
struct BlockView {
  bool ok = false;  // the block's frame could be read
  BlockFrame frame;
  uint64_t length = 0;
  std::vector<BlockPart> parts;
};
BlockView view_block(ByteSource& source, const FileModel& model, const BlockRef& ref);
// The kind of a block's body ("descriptor", "index", "data", "trailer", "damaged").
const char* body_kind(BlockKind kind);
// "data bosdyn.api.RobotState #3 @ 2026-01-01 00:00:00.060 (96 B)", ...
std::string block_label(const FileModel& model, const BlockRef& ref, const BlockView& view);

}  // namespace logscope::bddf
