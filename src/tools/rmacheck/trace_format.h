// The per-rank binary trace of the rmacheck preload module: record types and
// the little encoder/decoder both sides share. A file is a header followed by
// records (u8 type, u32 payload length, payload); lengths make every record
// skippable, so a reader can say exactly at which offset a file is cut short.
// Native byte order: traces are written and read on the same machine type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace rmacheck::trace {

constexpr char kMagic[8] = {'J', 'S', 'R', 'M', 'A', 'T', 'R', '1'};
// 2: rma records carry the size of the target's basic element (accumulate atomicity); collective
//    records the request of a nonblocking collective; comm records their generation.
// 3: thread records name the thread that made the records after them.
// 4: omp records (OpenMP synchronisation through OMPT); a version 3 file is read as one without them.
// 5: win_create records end with the window's accumulate_ordering; older files are read with MPI's default.
// 6: sampled records (mode 1's sampling of origin buffers); older files have none: every buffer was watched.
// 7: local records of mode 1's page faults may have size kWidthFromInstruction.
// 8: omp records section_begin and sections_end (GCC's sections, preload/gomp_sections.cpp).
constexpr uint32_t kVersion = 8;
constexpr uint32_t kOldestVersion = 3;
constexpr size_t kHeaderSize = 8 + 4 * 5;  // magic, version, rank, size, pid, mode
// A local record's size when mode 1 caught the access by its page fault at the instruction `pc`:
// the fault gives the address, not the width; the analysis decodes the instruction's memory
// operand (analysis/access_width.h) and takes one byte where it cannot.
constexpr uint32_t kWidthFromInstruction = 0;

enum class Rec : uint8_t {
    module = 1,      // u64 start, u64 end, u64 file offset, str path (executable mappings)
    comm = 2,        // u32 id, i32 list of world ranks (index = rank in the communicator), u32 generation
                     // (v2; 0: first seen in use, k: the k-th made by dup/split/create with these members)
    win_create = 3,  // u32 win, u32 comm, u32 ordinal, u64 base, u64 size, i32 disp_unit, u8 flavor, u64 site,
                     // u8 AccOrdering bits (v5)
    win_free = 4,    // u32 win, u64 site
    attach = 5,      // u32 win, u64 base, u64 size
    rma = 7,         // u8 RmaKind, u32 win, i32 target, i64 disp, u64 site, u64 request, str op, str basic,
                     // u32 basic element size (v2), ranges origin, result, target bytes
    sync = 8,        // u8 SyncKind, u32 win, i32 target, i32 lock_type, u64 site, i32 list group (world ranks)
    coll = 9,        // u32 comm, u8 CollKind, i32 root, u64 site, u64 request (v2; 0: blocking)
    send = 10,       // u32 comm, i32 dest, i32 tag, u64 request (0: blocking), u64 site
    recv = 11,       // u32 comm, i32 source, i32 tag, u64 site (blocking; source/tag from the status)
    req_done = 12,   // u64 request, u8 is_recv, u32 comm, i32 source, i32 tag, u64 site
    local = 13,      // u64 pc, u64 addr, u32 size (kWidthFromInstruction: see there), u8 write
    finalize = 14,   // u64 site
    note = 15,       // str text (what this run could not observe)
    thread = 16,     // u32 kernel thread id (v3): the records up to the next thread record were made by it
                     // (written only when the thread changes; the first record of a file is one)
    omp = 17,        // u8 OmpKind, u64 a, u64 b (v4): OpenMP synchronisation seen through OMPT, by the thread
                     // that made it (ids are the tool's own: parallel regions and tasks numbered from 1)
    sampled = 18,    // u64 operations, u64 watched (v6): of the rank's RMA operations, those whose origin
                     // buffers mode 1 watched (tools/rmacheck/sampling.h); written at MPI_Finalize and by
                     // the SIGTERM/SIGINT flush of a killed rank
};

// Records the happens-before analysis orders processes or threads by (synchronisations, messages,
// collectives, window creation and freeing): mode 1 watches a window page at the target again from
// each one on (preload/protect.h, "span").
inline bool synchronises(Rec type) {
    switch (type) {
    case Rec::win_create: case Rec::win_free: case Rec::sync: case Rec::coll: case Rec::send: case Rec::recv:
    case Rec::req_done: case Rec::finalize: case Rec::omp:
        return true;
    default:
        return false;
    }
}

// The window's accumulate_ordering info (MPI-3.1 11.7.2): which pairs of accumulate-family operations
// from one origin to the same target location MPI applies in the order they were issued ("raw": a read
// after a write). MPI's default is all four; "none" is none.
enum AccOrdering : uint8_t { acc_rar = 1, acc_raw = 2, acc_war = 4, acc_waw = 8, acc_all = 15 };

// The bits of an accumulate_ordering value: a comma-separated list of rar, raw, war, waw, or "none".
// A word MPI does not define orders nothing (the analysis then assumes less order, never more).
inline uint8_t accumulate_ordering_bits(const std::string& value) {
    uint8_t bits = 0;
    size_t at = 0;
    while (at <= value.size()) {
        size_t end = value.find(',', at);
        if (end == std::string::npos) end = value.size();
        std::string word = value.substr(at, end - at);
        word.erase(0, word.find_first_not_of(" \t"));
        word.erase(word.find_last_not_of(" \t") + 1);
        if (word == "rar") bits |= acc_rar;
        else if (word == "raw") bits |= acc_raw;
        else if (word == "war") bits |= acc_war;
        else if (word == "waw") bits |= acc_waw;
        at = end + 1;
    }
    return bits;
}

// What a and b of an omp record hold.
enum class OmpKind : uint8_t {
    parallel_begin,  // a: parallel region                 (on the encountering thread)
    implicit_begin,  // a: parallel region, b: implicit task (every team thread, the encountering one too)
    implicit_end,    // b: implicit task
    barrier_begin,   // b: implicit task (any barrier: explicit, implicit at the end of parallel/for/single/...)
    barrier_end,     // b: implicit task
    taskwait_begin,  // b: the waiting task
    taskwait_end,    // b: the waiting task
    mutex_acquired,  // a: wait id (critical, lock, nest lock, ordered; not atomic)
    mutex_released,  // a: wait id
    task_create,     // a: the creating task, b: the new explicit task
    task_begin,      // b: task (its first schedule on this thread)
    task_end,        // b: task (completed)
    parallel_end,    // a: parallel region
    depend_in,       // a: address, b: the new task (after its task_create): depend(in: a)
    depend_out,      // a: address, b: the new task: depend(out/inout: a)
    section_begin,   // a: the section's number (from 1): this thread runs it now (GCC's GOMP_sections_*)
    sections_end,    // this thread runs no more sections of the construct
};

enum class RmaKind : uint8_t { put, get, acc, get_acc, fetch_op, cas };
enum class SyncKind : uint8_t {
    fence, lock, unlock, lock_all, unlock_all, flush, flush_all, flush_local, flush_local_all,
    win_sync, post, start, complete, wait
};
enum class CollKind : uint8_t { all, bcast, gather };
enum Mode : uint32_t { mode_calls_only = 0, mode_protect = 1, mode_precise = 2 };

struct Range {
    uint64_t lo = 0, hi = 0;  // [lo, hi)
    bool operator==(const Range& o) const { return lo == o.lo && hi == o.hi; }
};

class Encoder {
public:
    // Fields are copied by a fixed-size memcpy the compiler inlines: std::string::append took a
    // library call per field, most of the module's cost per MPI call (perf, 2026-11-26).
    template <class T> void put(T v) {
        reserve(sizeof v);
        std::memcpy(&buf_[n_], &v, sizeof v);
        n_ += sizeof v;
    }
    void put_str(const std::string& s) {
        put<uint32_t>(static_cast<uint32_t>(s.size()));
        reserve(s.size());
        if (!s.empty()) std::memcpy(&buf_[n_], s.data(), s.size());
        n_ += s.size();
    }
    void put_ranges(const std::vector<Range>& r) {
        put<uint32_t>(static_cast<uint32_t>(r.size()));
        for (const auto& x : r) put(x.lo), put(x.hi);
    }
    void put_ints(const std::vector<int32_t>& v) {
        put<uint32_t>(static_cast<uint32_t>(v.size()));
        for (auto x : v) put(x);
    }
    const char* data() const { return buf_.data(); }
    size_t size() const { return n_; }
    // One complete record: type, payload length, payload.
    std::string record(Rec type) const {
        std::string out;
        out.push_back(static_cast<char>(type));
        uint32_t n = static_cast<uint32_t>(n_);
        out.append(reinterpret_cast<const char*>(&n), 4);
        return out.append(buf_.data(), n_);
    }

private:
    void reserve(size_t more) {
        if (n_ + more > buf_.size()) buf_.resize(std::max<size_t>(2 * buf_.size(), n_ + more));
    }
    std::string buf_ = std::string(128, '\0');  // most records fit: one allocation
    size_t n_ = 0;
};

struct DecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads one payload; every read is bounds-checked.
class Decoder {
public:
    Decoder(const char* p, size_t n) : p_(p), n_(n) {}
    template <class T> T get() {
        need(sizeof(T));
        T v;
        std::memcpy(&v, p_ + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string get_str() {
        uint32_t n = get<uint32_t>();
        need(n);
        std::string s(p_ + at_, n);
        at_ += n;
        return s;
    }
    std::vector<Range> get_ranges() {
        uint32_t n = get<uint32_t>();
        need(static_cast<size_t>(n) * 16);
        std::vector<Range> r(n);
        for (auto& x : r) x.lo = get<uint64_t>(), x.hi = get<uint64_t>();
        return r;
    }
    std::vector<int32_t> get_ints() {
        uint32_t n = get<uint32_t>();
        need(static_cast<size_t>(n) * 4);
        std::vector<int32_t> v(n);
        for (auto& x : v) x = get<int32_t>();
        return v;
    }
    size_t left() const { return n_ - at_; }

private:
    void need(size_t k) const {
        if (n_ - at_ < k) throw DecodeError("record payload shorter than its fields");
    }
    const char* p_;
    size_t n_;
    size_t at_ = 0;
};

}  // namespace rmacheck::trace
