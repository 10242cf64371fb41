// Trace parsing (see trace_reader.h).
#include "tools/rmacheck/analysis/trace_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace rmacheck {

using trace::Decoder;
using trace::Rec;

namespace {

std::string at(const std::string& file, size_t offset) {
    return file + ": offset " + std::to_string(offset) + ": ";
}

// thread: the thread named by the last thread record, updated by the next one.
void decode(RankTrace& t, Rec type, Decoder& d, uint32_t& thread) {
    Event e;
    e.type = type;
    e.thread = thread;
    switch (type) {
    case Rec::module: {
        Module m;
        m.start = d.get<uint64_t>(), m.end = d.get<uint64_t>(), m.offset = d.get<uint64_t>();
        m.path = d.get_str();
        t.modules.push_back(m);
        return;
    }
    case Rec::comm: {
        uint32_t id = d.get<uint32_t>();
        t.comms[id] = d.get_ints();
        if (uint32_t generation = d.get<uint32_t>()) t.comm_generation[id] = generation;
        return;
    }
    case Rec::win_create: {
        WinDesc w;
        e.win = d.get<uint32_t>();
        w.comm = d.get<uint32_t>(), w.ordinal = d.get<uint32_t>(), w.base = d.get<uint64_t>();
        w.size = d.get<uint64_t>(), w.disp_unit = d.get<int32_t>(), w.flavor = d.get<uint8_t>();
        e.site = d.get<uint64_t>();
        if (d.left() > 0) w.acc_ordering = d.get<uint8_t>();  // version 5
        t.wins[e.win] = w;
        break;
    }
    case Rec::win_free:
        e.win = d.get<uint32_t>(), e.site = d.get<uint64_t>();
        break;
    case Rec::attach: {
        uint32_t win = d.get<uint32_t>();
        uint64_t base = d.get<uint64_t>(), size = d.get<uint64_t>();
        t.wins[win].attached.push_back({base, base + size});
        return;
    }
    case Rec::rma:
        e.kind = d.get<uint8_t>(), e.win = d.get<uint32_t>(), e.target = d.get<int32_t>();
        e.disp = d.get<int64_t>(), e.site = d.get<uint64_t>(), e.request = d.get<uint64_t>();
        e.op = d.get_str(), e.basic = d.get_str(), e.elem = d.get<uint32_t>();
        e.origin = d.get_ranges(), e.result = d.get_ranges(), e.target_bytes = d.get_ranges();
        if (e.kind > static_cast<uint8_t>(trace::RmaKind::cas)) throw trace::DecodeError("unknown RMA kind");
        break;
    case Rec::sync:
        e.kind = d.get<uint8_t>(), e.win = d.get<uint32_t>(), e.target = d.get<int32_t>();
        e.lock_type = d.get<int32_t>(), e.site = d.get<uint64_t>(), e.group = d.get_ints();
        if (e.kind > static_cast<uint8_t>(trace::SyncKind::wait)) throw trace::DecodeError("unknown sync kind");
        break;
    case Rec::coll:
        e.comm = d.get<uint32_t>(), e.kind = d.get<uint8_t>(), e.peer = d.get<int32_t>(), e.site = d.get<uint64_t>();
        e.request = d.get<uint64_t>();
        if (e.kind > static_cast<uint8_t>(trace::CollKind::gather)) throw trace::DecodeError("unknown collective");
        break;
    case Rec::send:
        e.comm = d.get<uint32_t>(), e.peer = d.get<int32_t>(), e.tag = d.get<int32_t>();
        e.request = d.get<uint64_t>(), e.site = d.get<uint64_t>();
        break;
    case Rec::recv:
        e.comm = d.get<uint32_t>(), e.peer = d.get<int32_t>(), e.tag = d.get<int32_t>(), e.site = d.get<uint64_t>();
        e.is_recv = true;
        break;
    case Rec::req_done:
        e.request = d.get<uint64_t>(), e.is_recv = d.get<uint8_t>() != 0, e.comm = d.get<uint32_t>();
        e.peer = d.get<int32_t>(), e.tag = d.get<int32_t>(), e.site = d.get<uint64_t>();
        break;
    case Rec::local:
        e.site = d.get<uint64_t>(), e.addr = d.get<uint64_t>(), e.size = d.get<uint32_t>();
        e.write = d.get<uint8_t>() != 0;
        break;
    case Rec::finalize:
        e.site = d.get<uint64_t>();
        t.finalized = true;
        break;
    case Rec::note: {
        std::string text = d.get_str();
        if (!text.empty()) t.notes.push_back(text);
        return;
    }
    case Rec::thread:
        thread = d.get<uint32_t>();
        return;
    case Rec::sampled:
        t.operations = d.get<uint64_t>(), t.watched = d.get<uint64_t>();
        if (t.watched > t.operations) throw trace::DecodeError("more operations watched than issued");
        return;
    case Rec::omp:
        e.kind = d.get<uint8_t>(), e.id = d.get<uint64_t>(), e.id2 = d.get<uint64_t>();
        if (e.kind > static_cast<uint8_t>(trace::OmpKind::sections_end)) throw trace::DecodeError("unknown OpenMP event");
        t.omp_threads.insert(e.thread);
        if (std::find(t.thread_order.begin(), t.thread_order.end(), e.thread) == t.thread_order.end())
            t.thread_order.push_back(e.thread);
        t.events.push_back(std::move(e));  // orders threads; neither an MPI call nor an access
        return;
    default:
        throw trace::DecodeError("unknown record type " + std::to_string(static_cast<int>(type)));
    }
    if (!t.threads.count(e.thread) &&
        std::find(t.thread_order.begin(), t.thread_order.end(), e.thread) == t.thread_order.end())
        t.thread_order.push_back(e.thread);
    ThreadUse& use = t.threads[e.thread];
    ++(type == Rec::local ? use.accesses : use.mpi_calls);
    t.rma_calls += type == Rec::rma;
    t.events.push_back(std::move(e));
}

}  // namespace

RankTrace parse_trace(const std::string& file, const std::string& bytes) {
    RankTrace t;
    t.file = file;
    if (bytes.size() < trace::kHeaderSize || bytes.compare(0, 8, std::string(trace::kMagic, 8)) != 0) {
        t.error = at(file, 0) + "not a jobsentry RMA trace (expected the magic JSRMATR1 and a " +
                  std::to_string(trace::kHeaderSize) + "-byte header; the file has " + std::to_string(bytes.size()) +
                  " bytes)";
        return t;
    }
    int32_t fields[5];
    std::copy(bytes.data() + 8, bytes.data() + trace::kHeaderSize, reinterpret_cast<char*>(fields));
    // Version 3 differs only by having no omp records: read as it is.
    if (static_cast<uint32_t>(fields[0]) < trace::kOldestVersion || static_cast<uint32_t>(fields[0]) > trace::kVersion) {
        t.error = at(file, 8) + "trace version " + std::to_string(fields[0]) + ", this jobsentry reads versions " +
                  std::to_string(trace::kOldestVersion) + " to " + std::to_string(trace::kVersion) +
                  " (run the program again under this jobsentry's rma-check)";
        return t;
    }
    t.rank = fields[1], t.size = fields[2], t.pid = fields[3], t.mode = static_cast<uint32_t>(fields[4]);
    size_t pos = trace::kHeaderSize;
    uint32_t thread = 0;
    t.events.reserve(bytes.size() / 96);  // about the smallest mean record size of real traces: fewer regrowths
    while (pos < bytes.size()) {
        if (bytes.size() - pos < 5) {
            t.error = at(file, pos) + "truncated record header (" + std::to_string(bytes.size() - pos) +
                      " of 5 bytes); the rank probably died before MPI_Finalize";
            return t;
        }
        auto type = static_cast<Rec>(static_cast<uint8_t>(bytes[pos]));
        uint32_t len;
        std::copy(bytes.data() + pos + 1, bytes.data() + pos + 5, reinterpret_cast<char*>(&len));
        if (bytes.size() - pos - 5 < len) {
            t.error = at(file, pos) + "truncated record (payload of " + std::to_string(len) + " bytes, " +
                      std::to_string(bytes.size() - pos - 5) + " left); the rank probably died before MPI_Finalize";
            return t;
        }
        Decoder d(bytes.data() + pos + 5, len);
        try {
            decode(t, type, d, thread);
        } catch (const trace::DecodeError& e) {
            t.error = at(file, pos) + "malformed record: " + e.what();
            return t;
        }
        pos += 5 + len;
    }
    return t;
}

namespace {

// The file in one allocation of its size: a stream copy grew and copied a GB-sized trace several times.
std::string read_whole(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    std::string bytes;
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
    if (size <= 0) return bytes;
    bytes.resize(static_cast<size_t>(size));
    in.seekg(0);
    in.read(bytes.data(), size);
    bytes.resize(static_cast<size_t>(in.gcount()));
    return bytes;
}

}  // namespace

std::vector<RankTrace> read_trace_dir(const std::string& dir, std::string* error) {
    std::vector<RankTrace> out;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec) {
        *error = "cannot read trace directory " + dir + ": " + ec.message();
        return out;
    }
    for (const auto& entry : it) {
        std::string name = entry.path().filename().string();
        if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".jsrma") continue;
        out.push_back(parse_trace(entry.path().string(), read_whole(entry.path())));
    }
    if (out.empty()) *error = "no trace files (rank-N.jsrma) in " + dir;
    std::sort(out.begin(), out.end(), [](const RankTrace& a, const RankTrace& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.file < b.file;
    });
    return out;
}

}  // namespace rmacheck
