// Communicators and requests as the trace names them. A communicator gets a
// small id the first time it is used (MPI_COMM_WORLD is 0), and a `comm`
// record gives its members as world ranks, so that every peer and root in the
// trace is a world rank. A request started by Isend/Irecv gets an id that its
// completion record names. Handles are pointers (Open MPI) or integers (MPICH):
// both are kept as their bits.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include <mpi.h>

namespace jobtrace {

template <class Handle>
std::uint64_t handle_bits(Handle h) {
    static_assert(sizeof(Handle) <= sizeof(std::uint64_t), "an MPI handle fits 64 bits");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &h, sizeof h);
    return bits;
}

constexpr std::int32_t kProcNull = -2;   // the trace's MPI_PROC_NULL (no message)
constexpr std::int32_t kAnyPeer = -1;    // the trace's MPI_ANY_SOURCE

using Members = std::vector<std::int32_t>;

// A rank of a communicator with these members (null: MPI_COMM_WORLD) as a world rank.
std::int32_t world_rank_in(const Members* members, int rank) noexcept;

class Communicators {
public:
    // The id of comm, defining it in the trace on first use.
    std::uint16_t id(MPI_Comm comm) noexcept;
    // A rank of comm as a world rank (MPI_PROC_NULL, MPI_ANY_SOURCE as above).
    std::int32_t world_rank(MPI_Comm comm, int rank) noexcept;
    // comm's members as world ranks, kept alive for a receive that may complete after MPI_Comm_free;
    // null for MPI_COMM_WORLD.
    std::shared_ptr<const Members> members(MPI_Comm comm) noexcept;
    void forget(MPI_Comm comm) noexcept;  // MPI_Comm_free: the handle may come back for another communicator

private:
    struct Entry {
        std::uint16_t id;
        std::shared_ptr<Members> world;
    };
    const Entry& entry(MPI_Comm comm) noexcept;
    std::unordered_map<std::uint64_t, Entry> known_;
    std::uint16_t next_id_ = 1;
};

// Requests started and not yet completed, in a flat array searched linearly: a
// program has few open at a time, and this costs no allocation per request (a
// hash map's node did, 2 of them per Isend/Wait). MPICH gives every send that
// completed at once the same handle (a "lightweight" request): such entries
// share bits, and each completion naming it takes one.
class Requests {
public:
    struct Started {
        std::uint64_t bits;
        std::uint32_t id;
        bool receive;
        std::shared_ptr<const Members> members;  // a receive's status names a rank of its communicator
    };
    std::uint32_t start(MPI_Request request, bool receive, std::shared_ptr<const Members> members) noexcept;
    // What a request this module started was (removed: it completes now); false for others.
    bool finish(std::uint64_t bits, Started* started) noexcept;

private:
    std::vector<Started> open_;
    std::uint32_t next_id_ = 1;
};

Communicators& communicators();
Requests& requests();

}  // namespace jobtrace
