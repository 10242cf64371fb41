// See handles.h.
#include "tools/tracer/preload/handles.h"

#include "tools/tracer/preload/record_buffer.h"

namespace jobtrace {

Communicators& communicators() {
    static Communicators c;
    return c;
}

Requests& requests() {
    static Requests r;
    return r;
}

const Communicators::Entry& Communicators::entry(MPI_Comm comm) noexcept {
    auto [it, added] = known_.try_emplace(handle_bits(comm));
    if (!added) return it->second;
    int size = 0;
    PMPI_Comm_size(comm, &size);
    std::vector<int> ranks(static_cast<size_t>(size));
    for (int i = 0; i < size; ++i) ranks[static_cast<size_t>(i)] = i;
    it->second.world = std::make_shared<Members>(static_cast<size_t>(size), 0);
    MPI_Group group, world;
    PMPI_Comm_group(comm, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, size, ranks.data(), world, it->second.world->data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    it->second.id = next_id_++;
    records().add(Kind::comm, it->second.id, size, 0, 0, 0, 0, 0);
    records().add_raw(it->second.world->data(), it->second.world->size() * sizeof(std::int32_t));
    return it->second;
}

std::uint16_t Communicators::id(MPI_Comm comm) noexcept {
    return comm == MPI_COMM_WORLD ? 0 : entry(comm).id;
}

std::int32_t world_rank_in(const Members* members, int rank) noexcept {
    if (rank == MPI_PROC_NULL) return kProcNull;
    if (rank == MPI_ANY_SOURCE) return kAnyPeer;
    if (!members) return rank;
    return rank >= 0 && static_cast<size_t>(rank) < members->size() ? (*members)[static_cast<size_t>(rank)]
                                                                      : kProcNull;
}

std::int32_t Communicators::world_rank(MPI_Comm comm, int rank) noexcept {
    if (comm == MPI_COMM_WORLD || rank == MPI_PROC_NULL || rank == MPI_ANY_SOURCE) return world_rank_in(nullptr, rank);
    return world_rank_in(entry(comm).world.get(), rank);
}

std::shared_ptr<const Members> Communicators::members(MPI_Comm comm) noexcept {
    return comm == MPI_COMM_WORLD ? nullptr : entry(comm).world;
}

void Communicators::forget(MPI_Comm comm) noexcept { known_.erase(handle_bits(comm)); }

std::uint32_t Requests::start(MPI_Request request, bool receive, std::shared_ptr<const Members> members) noexcept {
    const std::uint32_t id = next_id_++;
    open_.push_back(Started{handle_bits(request), id, receive, std::move(members)});
    return id;
}

bool Requests::finish(std::uint64_t bits, Started* started) noexcept {
    for (std::size_t i = 0; i < open_.size(); ++i) {
        if (open_[i].bits != bits) continue;
        *started = std::move(open_[i]);
        open_[i] = std::move(open_.back());
        open_.pop_back();
        return true;
    }
    return false;
}

}  // namespace jobtrace
