// The binary trace `jobsentry trace` writes, one file per rank (rank-N.jstrace):
// a 32-byte header, fixed 40-byte records in program order (communicator
// definitions add their member list after the record), and a trailer record
// written at MPI_Finalize. A file without the trailer is a rank that died (or
// was killed) mid-run. Little-endian, written and read on the same kind of
// machine. Shared by the preload module (writer) and trace_reader (reader).
#pragma once

#include <cstdint>

namespace jobtrace {

constexpr char kMagic[8] = {'J', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};
constexpr std::uint32_t kVersion = 1;

struct FileHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t rank;        // in MPI_COMM_WORLD
    std::uint32_t world_size;
    std::uint32_t record_size; // sizeof(Record): a reader refuses a file of another layout
    std::uint64_t reserved;
};
static_assert(sizeof(FileHeader) == 32, "the header is 32 bytes on disk");

// What a record says. Peers and roots are world ranks; bytes = count * type size
// (per peer for alltoall, per rank for gather/scatter/allgather).
enum class Kind : std::uint8_t {
    send = 1,           // Send, Ssend (flags: kSynchronous)
    recv = 2,           // Recv: peer and tag as matched (from the status)
    isend = 3,          // request: the id its completion names
    irecv = 4,          // peer -1 for MPI_ANY_SOURCE: the completion says who sent
    complete = 5,       // a Wait/Test call completed `request`; peer, tag: the matched message (receives)
    sendrecv_send = 6,  // Sendrecv writes both halves with the same times
    sendrecv_recv = 7,
    barrier = 8,
    bcast = 9,          // peer: the root
    reduce = 10,        // peer: the root
    allreduce = 11,
    gather = 12,        // peer: the root
    scatter = 13,       // peer: the root
    allgather = 14,
    alltoall = 15,
    comm = 16,          // defines communicator `comm`: peer = its size, then that many int32 world ranks
    end = 17,           // trailer: bytes = the number of records before it
};
constexpr std::uint8_t kLastKind = 17;
constexpr std::uint8_t kSynchronous = 1;

struct Record {
    std::uint8_t kind;
    std::uint8_t flags;
    std::uint16_t comm;     // 0: MPI_COMM_WORLD; else the id of an earlier `comm` record
    std::int32_t peer;
    std::int32_t tag;
    std::uint32_t request;
    std::uint64_t bytes;
    std::uint64_t start;    // ns since MPI_Init returned, when the call was entered
    std::uint64_t end;      // ... and when it returned
};
static_assert(sizeof(Record) == 40, "records are 40 bytes on disk");

}  // namespace jobtrace
