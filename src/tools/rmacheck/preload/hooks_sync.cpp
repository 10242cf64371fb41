// The hand-written PMPI hooks: epoch synchronisation (fence, lock/unlock, flush, post/start/
// complete/wait). Each records its sync event; completion releases the protected buffers of
// the window or target (mode 1) and ends the sampler's interval.
#include "tools/rmacheck/preload/hooks.h"

#include <cstdint>
#include <vector>

#include "tools/rmacheck/preload/state.h"
#include "tools/rmacheck/preload/protect.h"
#include "tools/rmacheck/preload/trace_writer.h"

namespace rmacheck {

using trace::Encoder;
using trace::Rec;
using trace::SyncKind;

namespace state {

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

}  // namespace state

using namespace state;

// Epoch synchronisation: completion releases the protected buffers of the window (or target).
namespace {
int sync_call(const void* site, int rc, SyncKind kind, MPI_Win win, int target, int lock_type) {
    if (rc != MPI_SUCCESS || !g_active) return rc;
    record_sync(site, kind, win, target, lock_type);
    const WinInfo* w = win_info(win);
    if (!w || mode() == trace::mode_calls_only) return rc;
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

}  // namespace rmacheck
