// Mode 1's OpenMP order for programs built against GCC's libgomp (no OMPT):
// LLVM's libomp implements libgomp's GOMP_* entry points under libgomp's symbol
// versions, so the ranks can run it in libgomp's place (a private directory
// holding a libgomp.so.1 link to libomp, first on LD_LIBRARY_PATH), and the
// preloaded module registers as its OMPT tool as it does under clang. Only when
// libomp defines every versioned GOMP_/omp_ symbol the program needs from
// libgomp; otherwise the program runs libgomp and the report says why.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rmacheck::openmp {

// Pure: the program's needs ("name@VERSION", and its needed version nodes) that the
// replacement does not define, sorted; a needed version node it lacks is "version V".
std::vector<std::string> missing_from(const std::set<std::string>& needs, const std::set<std::string>& need_versions,
                                      const std::set<std::string>& defines, const std::set<std::string>& versions);

struct LibgompSwap {
    std::string dir;  // the private directory to remove after the run ("" when none)
    // Environment for the run: LD_LIBRARY_PATH (when swapped) and JOBSENTRY_RMA_OPENMP, which tells the
    // ranks' module what was done, for its note: "libomp PATH", "missing SYMBOLS", "absent PATH".
    std::vector<std::pair<std::string, std::string>> environment;
};

// Looks at the command's files (the first one linked with libgomp.so.1 decides); nothing to do when
// none is. libomp: $JOBSENTRY_LIBOMP, else the one found at build time. The directory is made
// under parent (the trace directory, which every rank can reach). Says what it did on stderr.
LibgompSwap prepare_libgomp_swap(const std::vector<std::string>& command, const std::string& parent,
                                 const std::string& who);
void remove_libgomp_swap(const LibgompSwap& swap);

}  // namespace rmacheck::openmp
