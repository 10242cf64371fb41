// The hang report's stack tree as files beside the report: X.json -> X.dot
// (always) and X.svg (drawn by Graphviz when it is installed), created like
// the report itself (temporary file + rename) by whoever calls this: under
// Slurm that is the child run_as_user has dropped to the job's user.
#pragma once

#include <string>

#include "hang/watch/report.h"

namespace jobsentry {

// Graphviz's dot at its Debian path: a fixed program, never looked up in PATH.
inline constexpr const char* kGraphvizDot = "/usr/bin/dot";
inline constexpr int kRenderTimeoutMs = 10000;

// Runs `program -Tsvg` on dot_path (posix_spawn, no shell, minimal environment,
// the file as stdin, opened without following a symlink and refused unless it
// is a regular file; stdout into a new temporary file beside svg_path, renamed
// over it only when dot succeeds), killed after timeout_ms. Error text, empty
// on success.
std::string render_svg(const std::string& program, const std::string& dot_path, const std::string& svg_path,
                       int timeout_ms = kRenderTimeoutMs);

// Writes X.dot and draws X.svg for the report at json_path, and records in
// report the files written and, when one was not, why (SVG skipped without
// Graphviz, a timeout, ...). Never fails: the report matters more than the graph.
void write_stack_graph(Report& report, const std::string& json_path, const std::string& dot_program = kGraphvizDot);

// write_stack_graph, then write_report: what both kinds of job do on a hang.
std::string write_hang_report(Report& report, const std::string& json_path);

}  // namespace jobsentry
