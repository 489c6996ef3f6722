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

// The defaults: formats whose table entry does not list the operation.
ExportResult FormatInspector::export_rows(const std::string&, const ExportRequest&, ExportSink&, const ProgressFn&) {
  ExportResult result;
  result.error = "export is not available for this format";
  return result;
}

ExtractResult FormatInspector::extract(const ExtractSelection&, OutputSink&, const ProgressFn&) {
  ExtractResult result;
  result.error = "extract is not available for this format";
  return result;
}

ExtractResult FormatInspector::repair(const ExtractSelection&, OutputSink&, const ProgressFn&) {
  ExtractResult result;
  result.error = "repair is not available for this format";
  return result;
}

}  // namespace logscope
