// `jobsentry options`: the hang detector's options as the spec has them
// (hang/watch/detection_spec.h), printed as the markdown tables of
// docs/watch.md and docs/slurm.md. The test options_docs compares each page's
// table with this output, so a page and the spec cannot drift apart.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

int run_options(const std::vector<std::string>& args);

}  // namespace jobsentry
