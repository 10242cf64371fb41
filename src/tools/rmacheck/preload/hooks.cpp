// The hand-written side of the PMPI wrappers (declarations in the generated
// wrappers_gen.h), part 1: tracing start and end, handle descriptions
// (communicators by their members' world ranks, windows by communicator and
// creation ordinal, so the offline analysis can match them across ranks),
// windows and epoch synchronisation. RMA operations: hooks_rma.cpp;
// messages, requests and collectives: hooks_p2p.cpp.
#include "tools/rmacheck/preload/hooks.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "tools/rmacheck/preload/datatypes.h"
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
std::recursive_mutex g_state;  // the handle maps below (MPI_THREAD_MULTIPLE)

std::unordered_map<MPI_Comm, uint32_t>& comms() {
    static auto* m = new std::unordered_map<MPI_Comm, uint32_t>;
    return *m;
}
uint32_t g_next_comm = 1;
// Communicators created by a hooked call (dup, split, create), counted per member set: the k-th such
// communicator with given members is generation k on every member, the one collective sequence of its own.
std::map<std::vector<int32_t>, uint32_t>& comm_generations() {
    static auto* m = new std::map<std::vector<int32_t>, uint32_t>;
    return *m;
}

void write_comm(uint32_t id, const std::vector<int32_t>& members, uint32_t generation) {
    Encoder e;
    e.put<uint32_t>(id);
    e.put_ints(members);
    e.put<uint32_t>(generation);
    writer().add(Rec::comm, e);
}

std::vector<int32_t> comm_members(MPI_Comm comm) {
    MPI_Group group;
    PMPI_Comm_group(comm, &group);
    std::vector<int32_t> members = state::world_ranks(group);
    PMPI_Group_free(&group);
    return members;
}

// A communicator just created by the program (not MPI_COMM_NULL on this rank).
int comm_created(int rc, MPI_Comm* newcomm) {
    if (rc != MPI_SUCCESS || !g_active || *newcomm == MPI_COMM_NULL) return rc;
    std::vector<int32_t> members = comm_members(*newcomm);
    std::lock_guard<std::recursive_mutex> lock(g_state);
    uint32_t id = g_next_comm++;
    comms()[*newcomm] = id;
    write_comm(id, members, ++comm_generations()[members]);
    return rc;
}
std::map<std::vector<int32_t>, uint32_t>& win_ordinals() {
    static auto* m = new std::map<std::vector<int32_t>, uint32_t>;
    return *m;
}
using state::WinInfo;
std::unordered_map<MPI_Win, WinInfo>& wins() {
    static auto* m = new std::unordered_map<MPI_Win, WinInfo>;
    return *m;
}
uint32_t g_next_win = 1;
struct ReqInfo {
    uint64_t id;
    bool recv;
    uint32_t comm;
};
std::unordered_map<MPI_Request, ReqInfo>& requests() {
    static auto* m = new std::unordered_map<MPI_Request, ReqInfo>;
    return *m;
}
uint64_t g_next_req = 1;

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

std::vector<int32_t> world_ranks(MPI_Group group) {
    int n = 0;
    PMPI_Group_size(group, &n);
    std::vector<int32_t> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) in[static_cast<size_t>(i)] = i;
    MPI_Group world;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, n, in.data(), world, out.data());
    PMPI_Group_free(&world);
    return out;
}

uint32_t comm_id(MPI_Comm comm, std::vector<int32_t>* members_out) {
    std::lock_guard<std::recursive_mutex> lock(g_state);
    auto it = comms().find(comm);
    if (it != comms().end() && !members_out) return it->second;
    std::vector<int32_t> members = comm_members(comm);
    if (members_out) *members_out = members;
    if (it != comms().end()) return it->second;
    uint32_t id = g_next_comm++;
    comms()[comm] = id;
    write_comm(id, members, 0);  // first seen here (MPI_COMM_WORLD, or made by a call not hooked)
    return id;
}

const WinInfo* win_info(MPI_Win win) {
    std::lock_guard<std::recursive_mutex> lock(g_state);
    auto it = wins().find(win);
    return it == wins().end() ? nullptr : &it->second;
}

void write_local_hits() {
    // Called on every outermost MPI entry: nothing to do is the common case, and costs one load.
    if (protect::hits_waiting()) {
        protect::Hit hits[512];
        int n;
        while ((n = protect::drain(hits, 512)) > 0) {
            for (int i = 0; i < n; ++i) {
                Encoder e;
                e.put<uint64_t>(hits[i].pc), e.put<uint64_t>(hits[i].addr), e.put<uint32_t>(1);
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
    std::string err = writer().open(dir, g_rank, size, g_mode);
    if (!err.empty()) {
        std::fprintf(stderr, "jobsentry[rmacheck rank=%d]: %s; this rank is not traced\n", g_rank, err.c_str());
        return;
    }
    write_modules();
    if (g_mode == trace::mode_precise) protect::set_track_only(), enable_precise();
    const char* sampling = std::getenv("JOBSENTRY_RMA_SAMPLING");
    g_sampler = Sampler(0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(g_rank + 1), {},
                        !(sampling && std::strcmp(sampling, "off") == 0));
    if (g_mode == trace::mode_protect && !protect::install()) {
        std::fprintf(stderr, "jobsentry[rmacheck rank=%d]: cannot install the SIGSEGV handler; loads and stores "
                             "are not observed\n", g_rank);
        g_mode = trace::mode_calls_only;
    }
    Encoder note;
    if (g_mode == trace::mode_protect)
        note.put_str("mode 1 (page protection and watchpoints): loads and stores of window memory at the target are not observed; "
                     "run with --precise to check them");
    else if (g_mode == trace::mode_calls_only)
        note.put_str("loads and stores are not observed (MPI calls only)");
    else
        note.put_str("");
    writer().add(Rec::note, note);
    std::atexit([] { writer().close(); });
    install_termination_flush();
    g_active = true;
}

void record_sync(const void* site, SyncKind kind, MPI_Win win, int target, int lock_type,
                 const std::vector<int32_t>& group = {}) {
    const WinInfo* w = win_info(win);
    if (!w) return;
    Encoder e;
    e.put<uint8_t>(static_cast<uint8_t>(kind)), e.put<uint32_t>(w->id), e.put<int32_t>(target);
    e.put<int32_t>(lock_type), e.put<uint64_t>(u64(site));
    e.put_ints(group);
    writer().add(Rec::sync, e);
}

uint64_t new_request(MPI_Request req, bool recv, uint32_t comm) {
    std::lock_guard<std::recursive_mutex> lock(g_state);
    uint64_t id = g_next_req++;
    requests()[req] = {id, recv, comm};
    return id;
}

// A tracked request completed: its event, and (mode 1) its buffers released.
void request_done(const void* site, MPI_Request req, const MPI_Status* st) {
    ReqInfo info;
    {
        std::lock_guard<std::recursive_mutex> lock(g_state);
        auto it = requests().find(req);
        if (it == requests().end()) return;
        info = it->second;
        requests().erase(it);
    }
    Encoder e;
    e.put<uint64_t>(info.id), e.put<uint8_t>(info.recv), e.put<uint32_t>(info.comm);
    e.put<int32_t>(st && info.recv ? st->MPI_SOURCE : -1), e.put<int32_t>(st && info.recv ? st->MPI_TAG : -1);
    e.put<uint64_t>(u64(site));
    writer().add(Rec::req_done, e);
    if (g_mode != trace::mode_calls_only) protect::release_request(info.id), completion();
}

// The accumulate_ordering the program asked for (what it may rely on, whatever MPI does): MPI's
// default, all four orderings, unless the info says otherwise.
uint8_t accumulate_ordering(MPI_Info info) {
    if (info == MPI_INFO_NULL) return trace::acc_all;
    char value[MPI_MAX_INFO_VAL + 1] = {};
    int flag = 0;
    if (PMPI_Info_get(info, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag) != MPI_SUCCESS || !flag)
        return trace::acc_all;
    return trace::accumulate_ordering_bits(value);
}

void win_created(const void* site, MPI_Win win, MPI_Comm comm, void* base, MPI_Aint size, int disp_unit,
                 uint8_t flavor, MPI_Info info) {
    std::vector<int32_t> members;
    uint32_t c = comm_id(comm, &members);
    uint32_t id, ordinal;
    {
        std::lock_guard<std::recursive_mutex> lock(g_state);
        id = g_next_win++;
        ordinal = win_ordinals()[members]++;
        wins()[win] = {id, c, members};
    }
    Encoder e;
    e.put<uint32_t>(id), e.put<uint32_t>(c), e.put<uint32_t>(ordinal), e.put<uint64_t>(u64(base));
    e.put<uint64_t>(static_cast<uint64_t>(size)), e.put<int32_t>(disp_unit), e.put<uint8_t>(flavor);
    e.put<uint64_t>(u64(site)), e.put<uint8_t>(accumulate_ordering(info));
    writer().add(Rec::win_create, e);
    if (base && size > 0) protect::add_window_memory(u64(base), u64(base) + static_cast<uint64_t>(size));
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

void enter_outermost() noexcept {
    if (g_mode == trace::mode_protect) {
        std::lock_guard<std::mutex> lock(g_inside_mutex);
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

int on_MPI_Win_create(const void* site, void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                      MPI_Win* win) {
    int rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
    if (rc == MPI_SUCCESS && g_active) win_created(site, *win, comm, base, size, disp_unit, 0, info);
    return rc;
}

int on_MPI_Win_allocate(const void* site, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                        MPI_Win* win) {
    int rc = PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
    // baseptr is really a void**: MPI stores the address of the new memory there.
    if (rc == MPI_SUCCESS && g_active) win_created(site, *win, comm, *static_cast<void**>(baseptr), size, disp_unit, 1, info);
    return rc;
}

int on_MPI_Win_allocate_shared(const void* site, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                               void* baseptr, MPI_Win* win) {
    int rc = PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
    if (rc == MPI_SUCCESS && g_active) win_created(site, *win, comm, *static_cast<void**>(baseptr), size, disp_unit, 2, info);
    return rc;
}

int on_MPI_Win_create_dynamic(const void* site, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
    int rc = PMPI_Win_create_dynamic(info, comm, win);
    if (rc == MPI_SUCCESS && g_active) win_created(site, *win, comm, nullptr, 0, 1, 3, info);
    return rc;
}

int on_MPI_Win_attach(const void*, MPI_Win win, void* base, MPI_Aint size) {
    int rc = PMPI_Win_attach(win, base, size);
    const WinInfo* w = g_active && rc == MPI_SUCCESS ? win_info(win) : nullptr;
    if (w) {
        Encoder e;
        e.put<uint32_t>(w->id), e.put<uint64_t>(u64(base)), e.put<uint64_t>(static_cast<uint64_t>(size));
        writer().add(Rec::attach, e);
        protect::add_window_memory(u64(base), u64(base) + static_cast<uint64_t>(size));
    }
    return rc;
}

int on_MPI_Win_detach(const void*, MPI_Win win, const void* base) {
    int rc = PMPI_Win_detach(win, base);
    if (rc == MPI_SUCCESS && g_active) protect::remove_window_memory(u64(base));
    return rc;
}

int on_MPI_Win_free(const void* site, MPI_Win* win) {
    MPI_Win handle = *win;
    const WinInfo* w = g_active ? win_info(handle) : nullptr;
    uint32_t id = w ? w->id : 0;
    int rc = PMPI_Win_free(win);
    if (rc == MPI_SUCCESS && id) {
        Encoder e;
        e.put<uint32_t>(id), e.put<uint64_t>(u64(site));
        writer().add(Rec::win_free, e);
        protect::release_win(id);
        completion();
        std::lock_guard<std::recursive_mutex> lock(g_state);
        wins().erase(handle);
    }
    return rc;
}

// Epoch synchronisation: completion releases the protected buffers of the window (or target).
namespace {
int sync_call(const void* site, int rc, SyncKind kind, MPI_Win win, int target, int lock_type) {
    if (rc != MPI_SUCCESS || !g_active) return rc;
    record_sync(site, kind, win, target, lock_type);
    const WinInfo* w = win_info(win);
    if (!w || g_mode == trace::mode_calls_only) return rc;
    switch (kind) {
    case SyncKind::fence: case SyncKind::unlock_all: case SyncKind::flush_all: case SyncKind::flush_local_all:
    case SyncKind::complete:
        protect::release_win(w->id);
        completion();
        break;
    case SyncKind::unlock: case SyncKind::flush: case SyncKind::flush_local:
        protect::release_target(w->id, target);
        completion();
        break;
    default:
        break;
    }
    return rc;
}

std::vector<int32_t> group_world(MPI_Group group) { return world_ranks(group); }
}  // namespace

int on_MPI_Win_fence(const void* site, int assert, MPI_Win win) {
    return sync_call(site, PMPI_Win_fence(assert, win), SyncKind::fence, win, -1, 0);
}
int on_MPI_Win_lock(const void* site, int lock_type, int rank, int assert, MPI_Win win) {
    return sync_call(site, PMPI_Win_lock(lock_type, rank, assert, win), SyncKind::lock, win, rank,
                     lock_type == MPI_LOCK_EXCLUSIVE ? 1 : 0);
}
int on_MPI_Win_unlock(const void* site, int rank, MPI_Win win) {
    return sync_call(site, PMPI_Win_unlock(rank, win), SyncKind::unlock, win, rank, 0);
}
int on_MPI_Win_lock_all(const void* site, int assert, MPI_Win win) {
    return sync_call(site, PMPI_Win_lock_all(assert, win), SyncKind::lock_all, win, -1, 0);
}
int on_MPI_Win_unlock_all(const void* site, MPI_Win win) {
    return sync_call(site, PMPI_Win_unlock_all(win), SyncKind::unlock_all, win, -1, 0);
}
int on_MPI_Win_flush(const void* site, int rank, MPI_Win win) {
    return sync_call(site, PMPI_Win_flush(rank, win), SyncKind::flush, win, rank, 0);
}
int on_MPI_Win_flush_all(const void* site, MPI_Win win) {
    return sync_call(site, PMPI_Win_flush_all(win), SyncKind::flush_all, win, -1, 0);
}
int on_MPI_Win_flush_local(const void* site, int rank, MPI_Win win) {
    return sync_call(site, PMPI_Win_flush_local(rank, win), SyncKind::flush_local, win, rank, 0);
}
int on_MPI_Win_flush_local_all(const void* site, MPI_Win win) {
    return sync_call(site, PMPI_Win_flush_local_all(win), SyncKind::flush_local_all, win, -1, 0);
}
int on_MPI_Win_sync(const void* site, MPI_Win win) {
    return sync_call(site, PMPI_Win_sync(win), SyncKind::win_sync, win, -1, 0);
}
int on_MPI_Win_post(const void* site, MPI_Group group, int assert, MPI_Win win) {
    int rc = PMPI_Win_post(group, assert, win);
    if (rc == MPI_SUCCESS && g_active) record_sync(site, SyncKind::post, win, -1, 0, group_world(group));
    return rc;
}
int on_MPI_Win_start(const void* site, MPI_Group group, int assert, MPI_Win win) {
    int rc = PMPI_Win_start(group, assert, win);
    if (rc == MPI_SUCCESS && g_active) record_sync(site, SyncKind::start, win, -1, 0, group_world(group));
    return rc;
}
int on_MPI_Win_complete(const void* site, MPI_Win win) {
    return sync_call(site, PMPI_Win_complete(win), SyncKind::complete, win, -1, 0);
}
int on_MPI_Win_wait(const void* site, MPI_Win win) {
    return sync_call(site, PMPI_Win_wait(win), SyncKind::wait, win, -1, 0);
}
int on_MPI_Win_test(const void* site, MPI_Win win, int* flag) {
    int rc = PMPI_Win_test(win, flag);
    if (rc == MPI_SUCCESS && *flag) sync_call(site, rc, SyncKind::wait, win, -1, 0);
    return rc;
}

int on_MPI_Type_free(const void*, MPI_Datatype* datatype) {
    forget_type(*datatype);
    return PMPI_Type_free(datatype);
}

int on_MPI_Comm_dup(const void*, MPI_Comm comm, MPI_Comm* newcomm) {
    return comm_created(PMPI_Comm_dup(comm, newcomm), newcomm);
}
int on_MPI_Comm_dup_with_info(const void*, MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
    return comm_created(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}
int on_MPI_Comm_split(const void*, MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
    return comm_created(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}
int on_MPI_Comm_create(const void*, MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
    return comm_created(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int on_MPI_Comm_free(const void*, MPI_Comm* comm) {
    {
        std::lock_guard<std::recursive_mutex> lock(g_state);
        comms().erase(*comm);
    }
    return PMPI_Comm_free(comm);
}

}  // namespace rmacheck
