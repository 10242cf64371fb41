// The hand-written side of the PMPI wrappers (declarations in the generated
// wrappers_gen.h), part 1: tracing start and end, the outermost entry and exit
// of a wrapper, and the loads, stores and OpenMP events recorded between MPI calls.
// Handles: hooks_handles.cpp; epochs: hooks_sync.cpp; RMA operations: hooks_rma.cpp;
// messages, requests and collectives: hooks_p2p.cpp.
#include "tools/rmacheck/preload/hooks.h"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "tools/rmacheck/preload/finalize_analysis.h"
#include "tools/rmacheck/preload/mpi_identity.h"
#include "tools/rmacheck/preload/openmp_runtime.h"
#include "tools/rmacheck/preload/state.h"
#include "tools/rmacheck/preload/protect.h"
#include "tools/rmacheck/sampling.h"
#include "tools/rmacheck/preload/thread_id.h"
#include "tools/rmacheck/preload/thread_start.h"
#include "tools/rmacheck/preload/trace_writer.h"

namespace rmacheck {

bool g_enabled = false;
bool g_active = false;
thread_local int t_depth __attribute__((tls_model("initial-exec"))) = 0;

using trace::Encoder;
using trace::Range;
using trace::Rec;
using trace::RmaKind;
using trace::SyncKind;

namespace {

uint32_t g_mode = trace::mode_protect;
int g_rank = -1;

// Loads and stores reported by the precise-mode runtime, written at the next MPI call.
std::mutex g_local_mutex;
struct LocalAccess {
    uint64_t pc, addr;
    uint32_t size, thread;
    bool write;
};
// Never destroyed (a rank's last MPI call may come from an atexit handler); made at load, so that
// the recording path (every recorded access) reads a plain pointer.
auto* const g_local = new std::vector<LocalAccess>;

__attribute__((constructor)) void on_load() {
    const char* dir = std::getenv("JOBSENTRY_RMA_TRACE_DIR");
    g_enabled = dir && *dir;
    if (!g_enabled) return;
    const std::string foreign = foreign_mpi_library();
    if (foreign.empty()) return;
    g_enabled = false;  // every wrapper goes straight to PMPI: the program runs as without us
    const char* rank = std::getenv("PMI_RANK");
    if (!rank) rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || std::strcmp(rank, "0") == 0)  // one line per job, not one per rank
        std::fprintf(stderr,
                     "jobsentry rma-check: this program runs %s, but the preloaded %s is built for %s: "
                     "its RMA accesses are not checked (no trace is written). Run rma-check with --mpi %s "
                     "(or without --mpi) for this program (docs/rmacheck.md).\n",
                     foreign.c_str(), module_file_name(), built_for_mpi(), foreign_mpi_flavor());
}

}  // namespace

namespace state {

uint32_t mode() { return g_mode; }

bool g_one_node = false;
bool job_on_one_node() { return g_one_node; }

// Mode 1's sampler (sampling.h): created by start_tracing, seeded by the rank so that a run can be
// repeated; JOBSENTRY_RMA_SAMPLING=off (rma-check --check-all) watches every operation.
std::mutex g_sampler_mutex;
Sampler& g_sampler = *new Sampler(1, {}, false);  // never destroyed: MPI calls may come from atexit handlers

bool watch_buffers(const void* site) {
    if (g_mode != trace::mode_protect) return true;
    std::lock_guard<std::mutex> lock(g_sampler_mutex);
    return g_sampler.watch(u64(site));
}

void completion() {
    std::lock_guard<std::mutex> lock(g_sampler_mutex);
    g_sampler.interval_ended();
}

// Whether an instruction lies in the MPI library or a library it brings (transports, PMIx): its
// accesses outside our wrappers (an MPI call we do not wrap making progress, an MPI progress thread)
// are MPI's, never the program's, and are not recorded.
bool mpi_code(uint64_t pc) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(pc), &info) == 0 || !info.dli_fname) return false;
    const char* base = std::strrchr(info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    for (const char* prefix : {"libmpi", "mca_", "libopen-pal", "libopen-rte", "libpmix", "libucp", "libucs",
                               "libuct", "libfabric", "libpsm", "libhcoll"})
        if (std::strncmp(base, prefix, std::strlen(prefix)) == 0) return true;
    return false;
}

void write_local_hits() {
    // Called on every outermost MPI entry: nothing to do is the common case, and costs one load.
    if (protect::hits_waiting()) {
        protect::Hit hits[512];
        int n;
        while ((n = protect::drain(hits, 512)) > 0) {
            for (int i = 0; i < n; ++i) {
                if (mpi_code(hits[i].pc)) continue;
                Encoder e;
                e.put<uint64_t>(hits[i].pc), e.put<uint64_t>(hits[i].addr);
                e.put<uint32_t>(hits[i].at_instruction ? trace::kWidthFromInstruction : 1);
                e.put<uint8_t>(hits[i].write);
                writer().add(Rec::local, e, hits[i].thread);
            }
            if (n < 512) break;
        }
    }
    if (g_mode == trace::mode_protect) return;  // the buffer below is mode 2's (record_local)
    std::lock_guard<std::mutex> lock(g_local_mutex);
    for (const LocalAccess& a : *g_local) {
        Encoder e;
        e.put<uint64_t>(a.pc), e.put<uint64_t>(a.addr), e.put<uint32_t>(a.size);
        e.put<uint8_t>(a.write);
        writer().add(Rec::local, e, a.thread);
    }
    g_local->clear();
}

struct sigaction g_old_term, g_old_int;

// A hung job is ended with SIGTERM (mpirun forwards it, `timeout` sends it): the trace written so
// far, and the loads/stores caught since the last MPI call (the spin on a Get's buffer that caused
// the hang), are written before the default action runs, so the hang can still be analysed.
void on_terminate(int sig) {
    if (g_active) {
        writer().emergency_flush();
        protect::Hit hits[64];
        int n = protect::drain(hits, 64);
        for (int i = 0; i < n; ++i) {
            char p[21];
            uint32_t one = 1;
            uint8_t w = hits[i].write;
            std::memcpy(p, &hits[i].pc, 8), std::memcpy(p + 8, &hits[i].addr, 8), std::memcpy(p + 16, &one, 4);
            std::memcpy(p + 20, &w, 1);
            writer().emergency_record(Rec::local, p, sizeof p, hits[i].thread);
        }
        // The sampling counts, read without the lock (aligned 64-bit loads; another thread may be one
        // operation ahead, hence the clamp: the reader refuses watched > operations).
        uint64_t watched = g_sampler.watched(), operations = g_sampler.operations();
        uint64_t counts[2] = {operations, std::min(watched, operations)};
        writer().emergency_record(Rec::sampled, reinterpret_cast<const char*>(counts), sizeof counts, this_thread());
    }
    sigaction(sig, sig == SIGTERM ? &g_old_term : &g_old_int, nullptr);
    raise(sig);
}

void install_termination_flush() {
    struct sigaction sa{}, old{};
    sa.sa_handler = on_terminate;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    // Only where the program keeps the default action: its own handlers stay in charge.
    if (sigaction(SIGTERM, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(SIGTERM, &sa, &g_old_term);
    if (sigaction(SIGINT, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(SIGINT, &sa, &g_old_int);
}

void start_tracing() {
    const char* dir = std::getenv("JOBSENTRY_RMA_TRACE_DIR");
    const char* mode = std::getenv("JOBSENTRY_RMA_MODE");
    if (mode && std::strcmp(mode, "precise") == 0) g_mode = trace::mode_precise;
    if (mode && std::strcmp(mode, "calls") == 0) g_mode = trace::mode_calls_only;
    int size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    if (g_mode == trace::mode_protect) {
        // A collective, made by every rank before anything can fail (the mode comes from the job's
        // environment, the same on every rank).
        MPI_Comm node;
        int local = 0;
        if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
            PMPI_Comm_size(node, &local);
            PMPI_Comm_free(&node);
        }
        g_one_node = local == size;
    }
    std::string err = writer().open(dir, g_rank, size, g_mode);
    if (!err.empty()) {
        std::fprintf(stderr, "jobsentry[rma-check rank %d]: warning: %s; this rank is not traced\n", g_rank, err.c_str());
        return;
    }
    write_modules();
    if (g_mode == trace::mode_precise) protect::set_track_only(), enable_precise();
    const char* sampling = std::getenv("JOBSENTRY_RMA_SAMPLING");
    const bool sample = !(sampling && std::strcmp(sampling, "off") == 0);  // --check-all: off
    g_sampler = Sampler(0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(g_rank + 1), {}, sample);
    protect::sample_spans(sample);
    if (g_mode == trace::mode_protect && !protect::install()) {
        std::fprintf(stderr, "jobsentry[rma-check rank %d]: warning: cannot install the SIGSEGV handler; loads and stores "
                             "are not observed\n", g_rank);
        g_mode = trace::mode_calls_only;
    }
    Encoder note;
    if (g_mode == trace::mode_protect)
        note.put_str("mode 1 (page protection and watchpoints): at the target, the first loads and stores of an allocated "
                     "window between two synchronisations of the rank are observed (up to 8 per page and 32 per "
                     "window), later ones before the next synchronisation are not observed; "
                     "run with --precise to check every one");
    else if (g_mode == trace::mode_calls_only)
        note.put_str("loads and stores are not observed (MPI calls only)");
    else
        note.put_str("");
    writer().add(Rec::note, note);
    std::atexit([] { writer().close(); });
    install_termination_flush();
    g_active = true;
}

}  // namespace state

using namespace state;

void record_omp(uint8_t kind, uint64_t a, uint64_t b) noexcept {
    if (!g_active || t_depth != 0) return;  // not yet tracing, or the MPI library's own use of OpenMP
    write_local_hits();  // the loads/stores made so far come before it, in each thread's order
    Encoder e;
    e.put<uint8_t>(kind), e.put<uint64_t>(a), e.put<uint64_t>(b);
    writer().add(Rec::omp, e);
}

// Threads inside an outermost wrapper. Pages are protected again only when the last one leaves:
// one thread leaving must not protect a buffer MPI is still copying on another (EFAULT, a hang).
std::mutex g_inside_mutex;
int g_inside = 0;

// A kept window (protect.h) whose memory a call is given as a buffer goes back to being lifted
// inside MPI calls: the transport may copy it with the kernel (CMA), which a protected page makes
// fail. Not so for an RMA call on a kept window itself (its copies are loads and stores through the
// shared segment); MPI_BOTTOM (absolute addresses: anywhere) releases them all. Said once.
void release_kept_windows(std::initializer_list<const void*> buffers, MPI_Win win) {
    bool released = false;
    for (const void* b : buffers) {
        if (b == MPI_IN_PLACE) continue;
        if (b == MPI_BOTTOM) {
            released = protect::stop_keeping_all() || released;
            continue;
        }
        const int k = protect::kept_window_at(u64(b));
        if (k < 0) continue;
        const WinInfo* w = win != MPI_WIN_NULL ? win_info(win) : nullptr;
        if (w && protect::window_kept(w->id)) continue;  // an RMA call on a kept window: loads and stores
        protect::stop_keeping(static_cast<uint32_t>(k));
        released = true;
    }
    static std::atomic<bool> said{false};
    if (released && !said.exchange(true)) {
        Encoder n;
        n.put_str("mode 1: a window's memory (or MPI_BOTTOM) was given to an MPI call as a buffer: from then on its "
                  "pages are lifted inside MPI calls, and another thread's loads and stores there while one is "
                  "inside MPI are not observed");
        writer().add(Rec::note, n);
    }
}

void enter_outermost(std::initializer_list<const void*> buffers, MPI_Win win) noexcept {
    if (g_mode == trace::mode_protect) {
        std::lock_guard<std::mutex> lock(g_inside_mutex);
        if (buffers.size() && protect::any_kept()) release_kept_windows(buffers, win);
        if (g_inside++ == 0) protect::unprotect_all();
    }
    write_local_hits();
}

void leave_outermost() noexcept {
    if (g_mode == trace::mode_protect) {
        std::lock_guard<std::mutex> lock(g_inside_mutex);
        // 0: the wrapper that started tracing (MPI_Init) was entered before there was anything to lift.
        if (g_inside == 0 || --g_inside == 0) protect::reprotect_all();
    }
}

void record_local(uint64_t pc, uint64_t addr, uint32_t size, bool write) noexcept {
    const uint32_t thread = this_thread();  // the buffer is written later, maybe by another thread
    // Without threads of the program's own, the thread recording here is the one that writes the
    // buffer out (at its next MPI call): no lock, which was most of a recorded access's cost. A
    // thread can only appear through this same thread's pthread_create (thread_start.cpp).
    std::unique_lock<std::mutex> lock(g_local_mutex, std::defer_lock);
    if (program_threads() > 0) lock.lock();
    auto& buf = *g_local;
    // A loop walking through memory is one record per instruction between two MPI calls: the
    // last record of each instruction (a small table by PC, 4-way, so that the few instructions of
    // one loop rarely evict each other) grows while addresses stay contiguous.
    struct LastOf {
        uint64_t pc;
        size_t index;
    };
    static LastOf last_of[64];
    if (buf.empty()) std::fill(std::begin(last_of), std::end(last_of), LastOf{0, SIZE_MAX});
    // An unrolled or vectorised loop spreads one walk over several instructions: an access
    // continuing the previous record is merged into it (attributed to its first instruction).
    if (!buf.empty()) {
        LocalAccess& last = buf.back();
        if (last.write == write && last.thread == thread && addr == last.addr + last.size) {
            last.size += size;
            return;
        }
    }
    const size_t set = static_cast<size_t>((pc * 0x9E3779B97F4A7C15ull) >> 60) * 4;  // 16 sets of 4
    LastOf* slot = &last_of[set];
    for (size_t i = set; i < set + 4; ++i) {
        if (last_of[i].pc == pc) {
            slot = &last_of[i];
            break;
        }
        if (last_of[i].index + 1 < slot->index + 1) slot = &last_of[i];  // a free one (SIZE_MAX + 1 == 0), or the oldest
    }
    // Unrolled loops leave gaps of a few elements between one instruction's accesses (filled by its
    // neighbours): within kGap bytes the record grows to the hull. Trades exactness for trace size.
    constexpr uint64_t kGap = 64;
    if (slot->pc == pc && slot->index < buf.size()) {
        LocalAccess& r = buf[slot->index];
        if (r.pc == pc && r.write == write && r.thread == thread && addr >= r.addr && addr <= r.addr + r.size + kGap) {
            if (addr + size > r.addr + r.size) r.size = static_cast<uint32_t>(addr + size - r.addr);
            return;
        }
    }
    *slot = {pc, buf.size()};
    buf.push_back({pc, addr, size, thread, write});
}

int on_MPI_Init(const void*, int* argc, char*** argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) start_tracing();
    return rc;
}

int on_MPI_Init_thread(const void*, int* argc, char*** argv, int required, int* provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) start_tracing();
    return rc;
}

int on_MPI_Finalize(const void* site) {
    if (g_active) {
        // Known only now: LLVM libomp initialises (and calls ompt_start_tool) at the first parallel region.
        if (std::string omp = openmp::runtime_note(); !omp.empty()) {
            Encoder n;
            n.put_str(omp);
            writer().add(Rec::note, n);
        }
        if (uint64_t watched = 0, spans = 0; (protect::window_spans(&watched, &spans), watched < spans)) {
            char text[320];
            std::snprintf(text, sizeof text,
                          "rank %d: mode 1 watched its window memory at the target in %llu of %llu spans between "
                          "synchronisations (each window in its first 64, then fewer and fewer); run with --check-all "
                          "to watch every one", g_rank, static_cast<unsigned long long>(watched),
                          static_cast<unsigned long long>(spans));
            Encoder n;
            n.put_str(text);
            writer().add(Rec::note, n);
        }
        {
            std::lock_guard<std::mutex> lock(g_sampler_mutex);
            Encoder s;
            s.put<uint64_t>(g_sampler.operations()), s.put<uint64_t>(g_sampler.watched());
            writer().add(Rec::sampled, s);
        }
        Encoder e;
        e.put<uint64_t>(u64(site));
        writer().add(Rec::finalize, e);
        writer().close();
        g_active = false;
    }
    if (!g_enabled || !finalize::asked()) return PMPI_Finalize();
    // Every rank's trace is complete once all have passed this barrier.
    PMPI_Barrier(MPI_COMM_WORLD);
    int rc = PMPI_Finalize();
    if (g_rank == 0) finalize::run_analysis(std::getenv("JOBSENTRY_RMA_TRACE_DIR"));
    return rc;
}

}  // namespace rmacheck
