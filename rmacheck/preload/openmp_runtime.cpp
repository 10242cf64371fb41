// The OMPT probe (see openmp_runtime.h). The tool's initializer returns 0: no
// callback is registered yet (the analysis does not order threads by OpenMP's
// synchronisation), so OMPT stays inactive and costs the program nothing.
#include "openmp_runtime.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace rmacheck::openmp {

// The ABI of omp-tools.h (OpenMP 5.0 §4.2.1), declared here so the module does not
// need the header of one compiler's runtime.
struct StartToolResult {
    int (*initialize)(void* lookup, int initial_device_num, void* tool_data);
    void (*finalize)(void* tool_data);
    uint64_t tool_data;  // ompt_data_t: a union of uint64_t and void*
};

namespace {
std::atomic<bool> g_offered{false};
char g_runtime[128];  // the runtime's version string, e.g. "LLVM OMP version: 5.0.20140926"

int initialize(void*, int, void*) { return 0; }
void finalize(void*) {}
}  // namespace

std::string runtime_note() {
    if (g_offered.load())
        return std::string("the OpenMP runtime (") + g_runtime +
               ") offers OMPT, but its synchronisation events are not recorded yet: threads of a rank are not "
               "ordered by OpenMP barriers, single/master, tasks or locks";
    if (void* gomp = dlopen("libgomp.so.1", RTLD_NOLOAD | RTLD_LAZY)) {
        dlclose(gomp);
        return "the program runs GNU libgomp, which has no OMPT tool interface: threads of a rank cannot be ordered "
               "by OpenMP synchronisation (clang's -fopenmp, e.g. jobsentry-mpicc -fopenmp, uses LLVM libomp)";
    }
    return "";
}

}  // namespace rmacheck::openmp

// Called by LLVM libomp at its initialisation when a tool is in the process (LD_PRELOAD, or
// linked in by jobsentry-mpicc).
extern "C" __attribute__((visibility("default"))) rmacheck::openmp::StartToolResult* ompt_start_tool(
    unsigned int, const char* runtime_version) {
    using namespace rmacheck::openmp;
    std::strncpy(g_runtime, runtime_version ? runtime_version : "unknown", sizeof g_runtime - 1);
    g_offered.store(true);
    static StartToolResult result{initialize, finalize, 0};
    return &result;
}
