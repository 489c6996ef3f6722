// `check` and `info` over many files: paths expanded (directories with --recursive), N files at
// once, results printed in the order given as soon as each one's turn comes.
#pragma once

#include <string>
#include <vector>

#include "command.h"

namespace logscope::cli {

enum class BatchCommand { Info, Check };

// True when the arguments ask for more than today's one-file output: several paths, a directory
// or --recursive.
bool is_batch(const Arguments& args);

// Runs the command over every file; returns the worst exit status.
int run_batch(const Arguments& args, BatchCommand command);

// The files a list of paths names: files as given, directories (only with `recursive`) walked in
// sorted order. A directory without `recursive` is an error that says so.
struct ExpandedPath {
  std::string path;
  bool from_directory = false;  // found by a walk, not named by the user
  std::string error;            // set when the path cannot be used
};
std::vector<ExpandedPath> expand_paths(const std::vector<std::string>& paths, bool recursive);

}  // namespace logscope::cli
