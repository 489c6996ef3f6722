// The map of a BDDF file from the blocks its index names (or a walk found): magic and file
// descriptor, series descriptors, data blocks, the block indexes and file index, the trailer.
#include "bddf/format.h"
#include "bddf/inspector_impl.h"

namespace logscope::bddf {
namespace {

const char* region_kind(BlockKind kind) {
  switch (kind) {
    case BlockKind::Magic:
    case BlockKind::FileDescriptor: return "header";
    case BlockKind::SeriesDescriptor: return "descriptor";
    case BlockKind::SeriesBlockIndex:
    case BlockKind::FileIndex: return "index";
    case BlockKind::End: return "trailer";
    case BlockKind::Damaged: return "damaged";
    case BlockKind::Descriptor:
    case BlockKind::Data: return "block";
  }
  return "block";
}

}  // namespace

FileMap BddfInspector::file_map(bool full_check, const ProgressFn& progress) {
  const FileModel& model = model_;
  FileMapBuilder map(model.size);
  // The check first: its damage must be known as the blocks join runs (join_runs_as_added).
  Report checked;
  if (full_check) {
    checked = check(progress);
    map.refine_with_check(checked);
  }
  map.join_runs_as_added();
  for (const BlockRef& block : model.blocks()) {
    if (block.kind == BlockKind::Damaged) {
      map.damaged_from(block.offset, "not readable: " + model.recovery.ended);
      continue;
    }
    std::string label = block_kind_name(block.kind);
    if (block.kind == BlockKind::Data && block.series < model.series.size())
      label = "data blocks of series " + std::to_string(block.series);
    map.add(block.offset, block.kind == BlockKind::Magic ? kFirstBlockOffset : 0, region_kind(block.kind), label);
  }
  if (!model.trailer.present && model.size > 0)
    map.missing(0, "no index and no trailer: the file ends at byte " + std::to_string(model.size) +
                       " without them (a writer that never closed, or a cut)");

  if (full_check) return map.finish("check", std::move(checked.problems));
  return map.finish(model.indexed ? "index" : "scan", model.problems);
}

}  // namespace logscope::bddf
