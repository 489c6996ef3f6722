#include "views/views.h"

#include "views/diagnostics.h"
#include "views/image_frames.h"
#include "views/image_query.h"
#include "views/robot_log.h"
#include "views/scan_points.h"
#include "views/scans.h"
#include "views/transforms.h"
#include "views/view_support.h"

namespace logscope::views {

namespace {

bool is_image(std::string_view type) { return image_type(type) != ImageType::None; }

// Each view's name and the types it shows: the names are the views' own queries.
struct ViewKind {
  const char* name;
  IsViewType is_type;
};
constexpr ViewKind kViewKinds[] = {{"robot_log", is_log_type},     {"transforms", is_transform_type}, {"images", is_image},
                                   {"scans", is_scan_type},        {"diagnostics", is_diagnostics_type}};

// Which views this file has content for, from the index (no message read): in the page's view
// module too, so the Overview can say so at open (the views themselves may live in the full module).
QuerySpec view_topics_query(MessageSource& source) {
  return {"view_topics",
          "each view's topics (robot_log, transforms, images, scans, diagnostics) from the index, no message read",
          {},
          {{"views.view", Unit::Text}, {"views.topics.topic", Unit::Text}, {"views.topics.type", Unit::Text},
           {"views.topics.note", Unit::Text}},
          [&source](QueryArgs& args, const ProgressFn&) {
            if (!args.ok()) return QueryArgs::error_json(args.error());
            Json views = Json::array();
            for (const ViewKind& kind : kViewKinds) {
              Json topics = topics_only_answer(source, kind.is_type)["topics"];
              if (topics.empty()) continue;
              Json view = Json::object();
              view["view"] = kind.name;
              view["topics"] = std::move(topics);
              views.push_back(std::move(view));
            }
            Json out = Json::object();
            out["views"] = std::move(views);
            return out;
          }};
}

}  // namespace

void add_view_queries(std::vector<QuerySpec>& list, MessageSource* source) {
  if (!source) return;
  list.push_back(robot_log_query(*source));
  list.push_back(view_topics_query(*source));
#ifndef LOGSCOPE_VIEW_ONLY
  // Not in the page's view module (the first visit's download): the Transforms, Images, Scans and Diagnostics tabs ask
  // the full module, loaded on first use (web/worker.js fullQuery).
  list.push_back(transforms_query(*source));
  list.push_back(images_query(*source));
  list.push_back(scan_query(*source));
  list.push_back(diagnostics_query(*source));
#endif
}

}  // namespace logscope::views
