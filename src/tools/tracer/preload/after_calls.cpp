// What each `timed` call of mpi_p2p_coll.protos.txt records once PMPI returned
// (the generated wrapper read the clock before the call). Sizes are count times
// the type's size; peers and roots become world ranks (handles.h).
#include "tools/tracer/preload/guard.h"
#include "tools/tracer/preload/handles.h"
#include "tools/tracer/preload/record_buffer.h"
#include "wrappers_gen.h"

namespace jobtrace {

namespace {

std::uint64_t bytes_of(int count, MPI_Datatype type) noexcept {
    int size = 0;
    PMPI_Type_size(type, &size);
    return static_cast<std::uint64_t>(count < 0 ? 0 : count) * static_cast<std::uint64_t>(size < 0 ? 0 : size);
}

void p2p(Kind kind, std::uint64_t start, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
         std::uint32_t request = 0, std::uint8_t flags = 0) noexcept {
    if (!g_active) return;
    Communicators& c = communicators();
    records().add(kind, c.id(comm), c.world_rank(comm, peer), tag, request, bytes_of(count, type), start, now_ns(), flags);
}

// A collective: root (a rank of comm, or -1) as a world rank.
void collective(Kind kind, std::uint64_t start, std::uint64_t bytes, int root, MPI_Comm comm) noexcept {
    if (!g_active) return;
    Communicators& c = communicators();
    records().add(kind, c.id(comm), root < 0 ? -1 : c.world_rank(comm, root), 0, 0, bytes, start, now_ns());
}

}  // namespace

void after_MPI_Send(std::uint64_t start, const void*, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm) noexcept {
    p2p(Kind::send, start, count, type, dest, tag, comm);
}

void after_MPI_Ssend(std::uint64_t start, const void*, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm) noexcept {
    p2p(Kind::send, start, count, type, dest, tag, comm, 0, kSynchronous);
}

void after_MPI_Isend(std::uint64_t start, const void*, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, MPI_Request* request) noexcept {
    if (g_active) p2p(Kind::isend, start, count, type, dest, tag, comm, requests().start(*request, false, nullptr));
}

void after_MPI_Irecv(std::uint64_t start, void*, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Request* request) noexcept {
    if (g_active)
        p2p(Kind::irecv, start, count, type, source, tag, comm,
            requests().start(*request, true, communicators().members(comm)));
}

void after_MPI_Barrier(std::uint64_t start, MPI_Comm comm) noexcept { collective(Kind::barrier, start, 0, -1, comm); }

void after_MPI_Bcast(std::uint64_t start, void*, int count, MPI_Datatype type, int root, MPI_Comm comm) noexcept {
    collective(Kind::bcast, start, bytes_of(count, type), root, comm);
}

void after_MPI_Reduce(std::uint64_t start, const void*, void*, int count, MPI_Datatype type, MPI_Op, int root,
                      MPI_Comm comm) noexcept {
    collective(Kind::reduce, start, bytes_of(count, type), root, comm);
}

void after_MPI_Allreduce(std::uint64_t start, const void*, void*, int count, MPI_Datatype type, MPI_Op,
                         MPI_Comm comm) noexcept {
    collective(Kind::allreduce, start, bytes_of(count, type), -1, comm);
}

// Gather and scatter: the non-root ranks' counts are the ones that say the message size.
void after_MPI_Gather(std::uint64_t start, const void*, int sendcount, MPI_Datatype sendtype, void*, int, MPI_Datatype,
                      int root, MPI_Comm comm) noexcept {
    collective(Kind::gather, start, bytes_of(sendcount, sendtype), root, comm);
}

void after_MPI_Scatter(std::uint64_t start, const void*, int, MPI_Datatype, void*, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm) noexcept {
    collective(Kind::scatter, start, bytes_of(recvcount, recvtype), root, comm);
}

void after_MPI_Allgather(std::uint64_t start, const void*, int sendcount, MPI_Datatype sendtype, void*, int,
                         MPI_Datatype, MPI_Comm comm) noexcept {
    collective(Kind::allgather, start, bytes_of(sendcount, sendtype), -1, comm);
}

void after_MPI_Alltoall(std::uint64_t start, const void*, int sendcount, MPI_Datatype sendtype, void*, int,
                        MPI_Datatype, MPI_Comm comm) noexcept {
    collective(Kind::alltoall, start, bytes_of(sendcount, sendtype), -1, comm);
}

}  // namespace jobtrace
