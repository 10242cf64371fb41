#include "tools/simulator/goal_writer.h"

#include <charconv>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace jobsentry::sim {
namespace {

// Appends decimal numbers and words to a string, flushed now and then.
class Text {
public:
    explicit Text(std::ostream& out) : out_(out) {}
    ~Text() { flush(); }
    Text& operator<<(const char* s) {
        buf_ += s;
        return *this;
    }
    Text& operator<<(std::int64_t v) {
        char digits[24];
        auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
        buf_.append(digits, end);
        return *this;
    }
    void flush_if_large() {
        if (buf_.size() > (1u << 20)) flush();
    }
    void flush() {
        out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        buf_.clear();
    }

private:
    std::ostream& out_;
    std::string buf_;
};

std::int64_t num(std::uint64_t v) { return static_cast<std::int64_t>(v); }

}  // namespace

void write_goal(const Schedule& s, std::ostream& out) {
    // Ops by rank, in schedule order (a stable counting sort), and each op's
    // label number within its rank.
    std::vector<std::uint32_t> begin(s.num_ranks + 1, 0), by_rank(s.ops.size()), label(s.ops.size());
    for (const Op& op : s.ops) ++begin[op.rank + 1];
    for (std::uint32_t r = 0; r < s.num_ranks; ++r) begin[r + 1] += begin[r];
    std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
    for (std::uint32_t i = 0; i < s.ops.size(); ++i) {
        std::uint32_t r = s.ops[i].rank;
        label[i] = fill[r] - begin[r] + 1;
        by_rank[fill[r]++] = i;
    }
    Text t(out);
    t << "num_ranks " << num(s.num_ranks) << "\n";
    for (std::uint32_t r = 0; r < s.num_ranks; ++r) {
        t << "\nrank " << num(r) << " {\n";
        for (std::uint32_t k = begin[r]; k < begin[r + 1]; ++k) {
            std::uint32_t id = by_rank[k];
            const Op& op = s.ops[id];
            t << "l" << num(label[id]) << ": ";
            if (op.kind() == OpKind::calc) t << "calc " << num(op.size);
            else t << (op.kind() == OpKind::send ? "send " : "recv ") << num(op.size)
                   << (op.kind() == OpKind::send ? "b to " : "b from ") << std::int64_t{op.peer} << " tag "
                   << std::int64_t{op.tag};
            if (s.cpu(id) != 0) t << " cpu " << num(s.cpu(id));
            if (s.nic(id) != 0) t << " nic " << num(s.nic(id));
            t << "\n";
        }
        for (std::uint32_t k = begin[r]; k < begin[r + 1]; ++k) {
            std::uint32_t earlier = by_rank[k];
            for (std::uint32_t e = s.succ_begin[earlier]; e < s.succ_begin[earlier + 1]; ++e) {
                std::uint32_t later = s.succ[e] & ~kStartEdge;
                if (s.ops[later].rank != r)
                    throw std::runtime_error("the schedule has a dependency between rank " + std::to_string(r) +
                                             " and rank " + std::to_string(s.ops[later].rank) +
                                             ", which GOAL cannot express");
                t << "l" << num(label[later]) << ((s.succ[e] & kStartEdge) ? " irequires l" : " requires l")
                  << num(label[earlier]) << "\n";
            }
        }
        t << "}\n";
        t.flush_if_large();
    }
}

void write_goal_file(const Schedule& schedule, const std::string& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot write the GOAL file");
    write_goal(schedule, out);
    out.flush();
    if (!out) throw std::runtime_error(path + ": writing the GOAL file failed");
}

}  // namespace jobsentry::sim
