// OMPT (see openmp_runtime.h): the tool registers the callbacks of OpenMP's
// synchronisation and records each as an omp record of the calling thread
// (trace_format.h, OmpKind); the analysis orders a rank's threads by them
// (analysis/happens_before.cpp). Parallel regions and tasks get the tool's own
// ids (a counter) in their ompt_data_t; a thread keeps its current implicit
// task, which names the barriers it enters. The callbacks are short: a counter,
// a thread-local, one record appended under the trace writer's lock.
#include "tools/rmacheck/preload/openmp_runtime.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "tools/rmacheck/preload/hooks.h"
#include "tools/rmacheck/trace_format.h"

#ifdef JOBSENTRY_HAVE_OMP_TOOLS
#include <omp-tools.h>
#endif

namespace rmacheck::openmp {

namespace {
std::atomic<bool> g_offered{false};
std::atomic<bool> g_recording{false};  // callbacks registered
char g_runtime[128];  // the runtime's version string, e.g. "LLVM OMP version: 5.0.20140926"
}  // namespace

namespace {
// What rma-check did about libgomp (rmacheck/openmp/libgomp_swap.h): "libomp PATH", "missing SYMBOLS",
// "absent PATH"; the word and the rest.
std::pair<std::string, std::string> swap_said() {
    const char* env = std::getenv("JOBSENTRY_RMA_OPENMP");
    std::string s = env ? env : "";
    size_t space = s.find(' ');
    if (space == std::string::npos) return {s, ""};
    return {s.substr(0, space), s.substr(space + 1)};
}

// Whether the library loaded as libgomp.so.1 is LLVM libomp (its own entry point), or GCC's libgomp;
// empty when neither is loaded.
std::optional<bool> libgomp_is_libomp() {
    void* gomp = dlopen("libgomp.so.1", RTLD_NOLOAD | RTLD_LAZY);
    if (!gomp) return std::nullopt;
    bool llvm = dlsym(gomp, "__kmpc_fork_call") != nullptr;
    dlclose(gomp);
    return llvm;
}
}  // namespace

bool recording() { return g_recording.load(std::memory_order_relaxed); }

std::string runtime_note() {
    const auto [word, what] = swap_said();
    const std::optional<bool> gomp = libgomp_is_libomp();
    if (g_recording.load() && gomp.value_or(false))
        return std::string("the OpenMP runtime is LLVM libomp (") + g_runtime + ") in place of GCC's libgomp (" +
               (word == "libomp" ? what : std::string("libgomp.so.1")) +
               ", put first on LD_LIBRARY_PATH as libgomp.so.1 by rma-check: it provides every GOMP_/omp_ symbol the "
               "program needs from libgomp), and it offers OMPT: its synchronisation was recorded (parallel regions, "
               "barriers, critical, ordered, locks, tasks and their dependences), so the threads of a rank are "
               "ordered by it";
    if (g_recording.load())
        return std::string("the OpenMP runtime (") + g_runtime +
               ") offers OMPT: its synchronisation was recorded (parallel regions, barriers, critical, ordered, "
               "locks, tasks and their dependences), so the threads of a rank are ordered by it";
    if (g_offered.load())
        return std::string("the OpenMP runtime (") + g_runtime +
               ") offers OMPT, but its synchronisation events are not recorded (this module was built without "
               "omp-tools.h, or the runtime refused the callbacks): threads of a rank are not ordered by OpenMP "
               "barriers, single/master, tasks or locks";
    if (gomp && !*gomp) {
        std::string note = "the program runs GNU libgomp, which has no OMPT tool interface: threads of a rank cannot "
                           "be ordered by OpenMP synchronisation (clang's -fopenmp, e.g. jobsentry-mpicc -fopenmp, "
                           "uses LLVM libomp)";
        if (word == "missing")
            note += "; LLVM libomp was not put in its place because the program needs from libgomp " + what +
                    ", which libomp does not provide: the order of its threads was not checked";
        else if (word == "absent")
            note += "; LLVM libomp, which could take its place, was not found (" + what +
                    "): the order of its threads was not checked";
        else if (word == "libomp")
            note += "; LLVM libomp (" + what + ") was put first on LD_LIBRARY_PATH in its place, but the program "
                    "loaded libgomp all the same (a DT_RPATH or a library loaded by path wins over LD_LIBRARY_PATH)";
        return note;
    }
    return "";
}

}  // namespace rmacheck::openmp

#ifdef JOBSENTRY_HAVE_OMP_TOOLS
namespace {
using rmacheck::trace::OmpKind;

std::atomic<uint64_t> g_next_id{1};
// The implicit task the thread runs now (the innermost parallel region's), and the one it ran before
// (restored when that task ends: nested regions).
thread_local uint64_t t_implicit __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint64_t t_outer __attribute__((tls_model("initial-exec"))) = 0;

void record(OmpKind kind, uint64_t a, uint64_t b) { rmacheck::record_omp(static_cast<uint8_t>(kind), a, b); }
uint64_t new_id(ompt_data_t* d) {
    uint64_t id = g_next_id.fetch_add(1, std::memory_order_relaxed);
    if (d) d->value = id;
    return id;
}
uint64_t id_of(const ompt_data_t* d) { return d ? d->value : 0; }

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel, unsigned, int, const void*) {
    record(OmpKind::parallel_begin, new_id(parallel), 0);
}
void on_parallel_end(ompt_data_t* parallel, ompt_data_t*, int, const void*) {
    record(OmpKind::parallel_end, id_of(parallel), 0);
}
void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task, unsigned, unsigned,
                      int flags) {
    if (endpoint == ompt_scope_begin) {
        uint64_t id = new_id(task);  // the initial task too: it may create tasks and wait for them
        if (flags & ompt_task_initial) return;
        t_outer = t_implicit, t_implicit = id;
        record(OmpKind::implicit_begin, id_of(parallel), id);
    } else if (!(flags & ompt_task_initial)) {
        record(OmpKind::implicit_end, 0, t_implicit);
        t_implicit = t_outer, t_outer = 0;
    }
}
void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t* task,
                    const void*) {
    bool begin = endpoint == ompt_scope_begin;
    switch (kind) {
    case ompt_sync_region_taskwait:
        record(begin ? OmpKind::taskwait_begin : OmpKind::taskwait_end, 0, id_of(task));
        break;
    case ompt_sync_region_taskgroup:
    case ompt_sync_region_reduction:
        break;  // not ordered (docs/rmacheck.md)
    default:  // every barrier: explicit, implicit (parallel, workshare), implementation
        record(begin ? OmpKind::barrier_begin : OmpKind::barrier_end, 0, t_implicit);
    }
}
// Atomics (a runtime may implement some with a lock) are not taken as ordering: an atomic update
// does not order the accesses around it (no edge: a race stays visible rather than hidden).
void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void*) {
    if (kind != ompt_mutex_atomic) record(OmpKind::mutex_acquired, wait_id, 0);
}
void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void*) {
    if (kind != ompt_mutex_atomic) record(OmpKind::mutex_released, wait_id, 0);
}
void on_task_create(ompt_data_t* parent, const ompt_frame_t*, ompt_data_t* task, int flags, int, const void*) {
    if (!(flags & ompt_task_explicit)) return;
    uint64_t id = new_id(task);
    record(OmpKind::task_create, id_of(parent), id);
}
// Sibling tasks' depend clauses (called on the creating thread right after task_create). in: an
// input; out, inout: an output; inoutset counts as an input (not ordered among its members);
// mutexinoutset (exclusive, unordered) and doacross source/sink order nothing here.
void on_dependences(ompt_data_t* task, const ompt_dependence_t* deps, int n) {
    for (int i = 0; i < n; ++i) {
        auto type = deps[i].dependence_type;
        if (type == ompt_dependence_type_in || type == ompt_dependence_type_inoutset)
            record(OmpKind::depend_in, deps[i].variable.value, id_of(task));
        else if (type == ompt_dependence_type_out || type == ompt_dependence_type_inout)
            record(OmpKind::depend_out, deps[i].variable.value, id_of(task));
    }
}
void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    if (status == ompt_task_complete && id_of(prior)) record(OmpKind::task_end, 0, id_of(prior));
    if (id_of(next)) record(OmpKind::task_begin, 0, id_of(next));
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
    auto set = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
    if (!set) return 0;
    bool all = true;
    auto reg = [&](ompt_callbacks_t which, ompt_callback_t fn) {
        ompt_set_result_t r = set(which, fn);
        all = all && (r == ompt_set_always);
    };
    reg(ompt_callback_parallel_begin, reinterpret_cast<ompt_callback_t>(on_parallel_begin));
    reg(ompt_callback_parallel_end, reinterpret_cast<ompt_callback_t>(on_parallel_end));
    reg(ompt_callback_implicit_task, reinterpret_cast<ompt_callback_t>(on_implicit_task));
    reg(ompt_callback_sync_region, reinterpret_cast<ompt_callback_t>(on_sync_region));
    reg(ompt_callback_mutex_acquired, reinterpret_cast<ompt_callback_t>(on_mutex_acquired));
    reg(ompt_callback_mutex_released, reinterpret_cast<ompt_callback_t>(on_mutex_released));
    reg(ompt_callback_task_create, reinterpret_cast<ompt_callback_t>(on_task_create));
    reg(ompt_callback_task_schedule, reinterpret_cast<ompt_callback_t>(on_task_schedule));
    reg(ompt_callback_dependences, reinterpret_cast<ompt_callback_t>(on_dependences));
    rmacheck::openmp::g_recording.store(all);
    return 1;  // keep the tool: the callbacks run from now on
}
void finalize(ompt_data_t*) {}
}  // namespace
#endif

// Called by LLVM libomp at its initialisation when a tool is in the process (LD_PRELOAD, or
// linked in by jobsentry-mpicc).
#ifdef JOBSENTRY_HAVE_OMP_TOOLS
extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int, const char* runtime_version) {
    using namespace rmacheck::openmp;
    std::strncpy(g_runtime, runtime_version ? runtime_version : "unknown", sizeof g_runtime - 1);
    g_offered.store(true);
    static ompt_start_tool_result_t result{initialize, finalize, {0}};
    return &result;
}
#else
namespace {
// The ABI of omp-tools.h (OpenMP 5.0 §4.2.1), for the probe alone.
struct StartToolResult {
    int (*initialize)(void* lookup, int initial_device_num, void* tool_data);
    void (*finalize)(void* tool_data);
    uint64_t tool_data;
};
int initialize(void*, int, void*) { return 0; }  // no callback: OMPT stays inactive
void finalize(void*) {}
}  // namespace
extern "C" __attribute__((visibility("default"))) StartToolResult* ompt_start_tool(unsigned int,
                                                                                    const char* runtime_version) {
    using namespace rmacheck::openmp;
    std::strncpy(g_runtime, runtime_version ? runtime_version : "unknown", sizeof g_runtime - 1);
    g_offered.store(true);
    static StartToolResult result{initialize, finalize, 0};
    return &result;
}
#endif
