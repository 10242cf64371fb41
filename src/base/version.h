// Which build this is, the first question of every bug report:
// `jobsentry --version` prints it and jobsentry.so logs it once when slurmd
// loads it. Values fixed at build time (cmake/version.cmake).
#pragma once

#include <string>

namespace jobsentry {

const char* version();        // the project's version, e.g. "0.1.0"
const char* git_commit();     // the commit built, "-dirty" when the tree had changes; "unknown" outside git
const char* slurm_release();  // the Slurm release whose headers it was built against, e.g. "22.05.8"

// "jobsentry 0.1.0 (commit 704b4c8, built for Slurm 22.05.8)"
std::string version_line();

}  // namespace jobsentry
