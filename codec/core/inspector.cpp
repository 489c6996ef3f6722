#include "core/inspector.h"

namespace logscope {

Json tree_node_to_json(const TreeNode& node) {
  Json j = Json::object();
  j["id"] = node.id;
  j["label"] = node.label;
  j["kind"] = node.kind;
  j["offset"] = node.offset;
  j["length"] = node.length;
  j["child_count"] = node.child_count;
  return j;
}

}  // namespace logscope

namespace logscope {

// The default: formats whose table entry does not list Operation::Export.
ExportResult FormatInspector::export_rows(const std::string&, const ExportRequest&, ExportSink&, const ProgressFn&) {
  ExportResult result;
  result.error = "export is not available for this format";
  return result;
}

}  // namespace logscope
