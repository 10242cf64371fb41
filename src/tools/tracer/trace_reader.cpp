// See trace_reader.h.
#include "tools/tracer/trace_reader.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace jobtrace {

namespace {

[[noreturn]] void fail(const std::string& name, std::size_t offset, const std::string& expected,
                       const std::string& found) {
    throw TraceError(name + ": offset " + std::to_string(offset) + ": expected " + expected + ", found " + found);
}

std::string bytes_left(std::size_t n) { return "only " + std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

RankTrace parse_rank_trace(const std::string& name, const std::string& bytes) {
    RankTrace t;
    t.file = name;
    FileHeader h{};
    if (bytes.size() < sizeof h) fail(name, 0, "a 32-byte jobsentry trace header", bytes_left(bytes.size()));
    std::memcpy(&h, bytes.data(), sizeof h);
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) fail(name, 0, "the magic JSTRACE", "another file kind");
    if (h.version != kVersion || h.record_size != sizeof(Record))
        fail(name, 8, "trace version " + std::to_string(kVersion) + " with " + std::to_string(sizeof(Record)) +
                          "-byte records",
             "version " + std::to_string(h.version) + " with " + std::to_string(h.record_size) + "-byte records");
    t.rank = h.rank;
    t.world_size = h.world_size;
    std::vector<std::int32_t> world(h.world_size);
    for (std::uint32_t i = 0; i < h.world_size; ++i) world[i] = static_cast<std::int32_t>(i);
    t.comms[0] = std::move(world);
    std::size_t at = sizeof h;
    std::uint64_t seen = 0;
    while (true) {
        if (at == bytes.size())
            fail(name, at, "a record or the trailer",
                 "the end of the file (rank " + std::to_string(t.rank) + " ended before MPI_Finalize)");
        if (bytes.size() - at < sizeof(Record))
            fail(name, at, "a 40-byte record", bytes_left(bytes.size() - at) + " (the file is truncated)");
        Record r;
        std::memcpy(&r, bytes.data() + at, sizeof r);
        if (r.kind == 0 || r.kind > kLastKind)
            fail(name, at, "a record kind from 1 to " + std::to_string(kLastKind), "kind " + std::to_string(r.kind));
        const std::size_t record_at = at;
        at += sizeof r;
        const Kind kind = static_cast<Kind>(r.kind);
        if (kind == Kind::end) {
            if (r.bytes != seen)
                fail(name, record_at, "a trailer counting " + std::to_string(seen) + " records",
                     "one counting " + std::to_string(r.bytes));
            if (at != bytes.size())
                fail(name, at, "the end of the file after the trailer", bytes_left(bytes.size() - at) + " more");
            return t;
        }
        ++seen;
        if (kind == Kind::comm) {
            const std::size_t n = r.peer < 0 ? 0 : static_cast<std::size_t>(r.peer);
            if ((bytes.size() - at) / sizeof(std::int32_t) < n)
                fail(name, at, std::to_string(n) + " members of communicator " + std::to_string(r.comm),
                     bytes_left(bytes.size() - at) + " (the file is truncated)");
            std::vector<std::int32_t> members(n);
            if (n) std::memcpy(members.data(), bytes.data() + at, n * sizeof(std::int32_t));
            at += n * sizeof(std::int32_t);
            t.comms[r.comm] = std::move(members);
            continue;
        }
        if (!t.comms.count(r.comm))
            fail(name, record_at, "a communicator defined earlier", "communicator " + std::to_string(r.comm));
        t.records.push_back(r);
    }
}

RankTrace read_rank_trace(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceError(path + ": cannot be opened");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return parse_rank_trace(path, bytes.str());
}

std::map<std::uint32_t, std::string> trace_files(const std::string& dir) {
    std::map<std::uint32_t, std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".jstrace") continue;
        const std::string digits = name.substr(5, name.size() - 5 - 8);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
        files[static_cast<std::uint32_t>(std::stoul(digits))] = entry.path().string();
    }
    if (ec) throw TraceError(dir + ": cannot be listed: " + ec.message());
    return files;
}

}  // namespace jobtrace
