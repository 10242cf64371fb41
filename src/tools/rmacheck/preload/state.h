// Shared state of the preload hooks (hooks.cpp and hooks_handles.cpp own it): the tracing mode
// and the descriptions of communicators, windows and requests, so the RMA
// and point-to-point hooks record the same identities.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace rmacheck::state {

struct WinInfo {
    uint32_t id;
    uint32_t comm;
    std::vector<int32_t> members;
};

uint32_t mode();  // trace::Mode
bool job_on_one_node();  // mode 1: every rank of MPI_COMM_WORLD shares this rank's node (asked at MPI_Init)
// Mode 1: whether the buffers of an RMA operation issued at `site` are watched (the sampler of
// tools/rmacheck/sampling.h; every one with --check-all and in mode 2); completion() ends its interval.
bool watch_buffers(const void* site);
void completion();
inline uint64_t u64(const void* p) { return reinterpret_cast<uint64_t>(p); }
std::vector<int32_t> world_ranks(MPI_Group group);
// The trace's id of a communicator, writing its description the first time.
uint32_t comm_id(MPI_Comm comm, std::vector<int32_t>* members_out = nullptr);
const WinInfo* win_info(MPI_Win win);
uint64_t new_request(MPI_Request req, bool recv, uint32_t comm);
// A tracked request completed: its event, and its buffers released.
void request_done(const void* site, MPI_Request req, const MPI_Status* st);

}  // namespace rmacheck::state
