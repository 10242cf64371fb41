// Reads the per-rank trace files of `jobsentry trace` (trace_records.h). A
// file that cannot be used whole is refused with its name, the byte offset and
// what was expected there: a truncated record, a missing trailer (the rank
// died or was killed before MPI_Finalize), an unknown record kind, a header of
// another version. Pure: no MPI.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/tracer/trace_records.h"

namespace jobtrace {

struct RankTrace {
    std::string file;
    std::uint32_t rank = 0;
    std::uint32_t world_size = 0;
    std::vector<Record> records;                            // without comm records and the trailer
    std::map<std::uint16_t, std::vector<std::int32_t>> comms;  // id -> members as world ranks (0: world)
};

// "FILE: offset N: expected ..., found ...".
class TraceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

RankTrace read_rank_trace(const std::string& path);  // throws TraceError
RankTrace parse_rank_trace(const std::string& name, const std::string& bytes);  // the same on bytes in memory

// The rank-N.jstrace files of a directory, by rank number (N as the name says it).
std::map<std::uint32_t, std::string> trace_files(const std::string& dir);

}  // namespace jobtrace
