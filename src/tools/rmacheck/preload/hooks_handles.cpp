// The hand-written PMPI hooks: handle descriptions. Communicators by their members' world
// ranks, windows by communicator and creation ordinal, requests by a counter, so the offline
// analysis can match them across ranks; the hooks that create and free them.
#include "tools/rmacheck/preload/hooks.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "tools/rmacheck/preload/datatypes.h"
#include "tools/rmacheck/preload/state.h"
#include "tools/rmacheck/preload/protect.h"
#include "tools/rmacheck/preload/trace_writer.h"

namespace rmacheck {

using trace::Encoder;
using trace::Rec;

namespace {

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

}  // namespace

namespace state {

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
    if (mode() != trace::mode_calls_only) protect::release_request(info.id), completion();
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

// Mode 1 says, once per reason, which windows it does not watch at the target.
void note_unwatched(bool allocated) {
    static bool said_user_memory = false, said_too_large = false;
    bool& said = allocated ? said_too_large : said_user_memory;
    if (said) return;
    said = true;
    Encoder n;
    n.put_str(allocated
                  ? "mode 1: loads and stores at the target of allocated windows beyond what it watches (16 MiB of pages "
                    "and 64 windows per rank, pages it can protect one at a time) are not observed; run with "
                    "--precise to check them"
                  : "mode 1: loads and stores at the target of windows over the program's own memory (MPI_Win_create, "
                    "MPI_Win_create_dynamic) are not observed: Open MPI's shared-memory transport writes them with "
                    "process_vm_writev, which fails on protected pages; run with --precise to check them");
    writer().add(Rec::note, n);
}

// Whether [lo, hi) lies in one MAP_SHARED mapping of this process (/proc/self/maps).
bool in_shared_mapping(uint64_t lo, uint64_t hi) {
    std::FILE* maps = std::fopen("/proc/self/maps", "re");
    if (!maps) return false;
    char line[512];
    bool shared = false;
    while (std::fgets(line, sizeof line, maps)) {
        unsigned long start = 0, end = 0;
        char perms[5] = {};
        if (std::sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3) continue;
        if (lo >= start && lo < end) {
            shared = hi <= end && perms[3] == 's';
            break;
        }
    }
    std::fclose(maps);
    return shared;
}

// Whether mode 1 may keep an allocated window's pages closed inside MPI calls too (protect.h): only
// where every peer reaches this rank's part through its own mapping of a shared segment, so that no
// peer and no transport copies into it with the kernel (a CMA copy would fail with EFAULT, or be
// retried until the page opened). Open MPI's osc/rdma and osc/sm and MPICH place an allocated window
// in a shared segment when its ranks share a node, and its peers there load and store through their
// own mappings (docs/rmacheck.md, the probe's table); across nodes a transport writes it. So: this
// rank's memory lies in a MAP_SHARED mapping, and the whole job runs on one node (asked at MPI_Init).
// JOBSENTRY_RMA_KEEP_CLOSED=off lifts every window inside MPI calls.
bool reached_through_shared_memory(uint64_t lo, uint64_t hi) {
    const char* keep = std::getenv("JOBSENTRY_RMA_KEEP_CLOSED");
    return !(keep && std::strcmp(keep, "off") == 0) && job_on_one_node() && in_shared_mapping(lo, hi);
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
    // Allocated windows are watched at the target: MPI placed them, and its transports write them
    // through their own mappings or inside MPI calls, never with process_vm_writev (protect.h).
    const bool allocated = flavor == 1 || flavor == 2;
    const uint64_t lo = u64(base), hi = lo + static_cast<uint64_t>(size);
    bool watched = base && size > 0 &&
                   protect::add_window_memory(lo, hi, id, allocated,
                                              allocated && mode() == trace::mode_protect &&
                                                  reached_through_shared_memory(lo, hi));
    if (mode() == trace::mode_protect && !watched && (size > 0 || flavor == 3)) note_unwatched(allocated);
}

}  // namespace state

using namespace state;

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
        protect::add_window_memory(u64(base), u64(base) + static_cast<uint64_t>(size), w->id, false);
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
    if (id) protect::stop_keeping(id);  // MPI may touch and free its memory now
    int rc = PMPI_Win_free(win);
    if (rc == MPI_SUCCESS && id) {
        Encoder e;
        e.put<uint32_t>(id), e.put<uint64_t>(u64(site));
        writer().add(Rec::win_free, e);
        protect::release_win(id);
        protect::remove_window(id);  // MPI has freed an allocated window's memory
        completion();
        std::lock_guard<std::recursive_mutex> lock(g_state);
        wins().erase(handle);
    }
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
