#include "tools/simulator/goal_reader.h"

#include <fstream>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "tools/simulator/goal_labels.h"
#include "tools/simulator/goal_scanner.h"

namespace jobsentry::sim {
namespace {

bool is_word(const GoalToken& t, std::string_view w) { return t.kind == TokenKind::word && t.text == w; }
bool is_punct(const GoalToken& t, char c) { return t.kind == TokenKind::punct && t.text[0] == c; }
bool is_verb(const GoalToken& t) { return is_word(t, "send") || is_word(t, "recv") || is_word(t, "calc"); }

// A dependency that names a label defined later in the block: resolved at '}'.
struct PendingDependency {
    std::string later, earlier;
    std::uint64_t line;
    bool at_start;
};

class GoalReader {
public:
    GoalReader(std::istream& in, const std::string& name, std::uint64_t expected_ops)
        : sc_(in, name), expected_ops_(expected_ops) {}

    Schedule read() {
        if (!is_word(sc_.peek_past_line_ends(), "num_ranks")) sc_.fail(sc_.peek(), "'num_ranks N' at the start");
        sc_.next();
        GoalToken t = sc_.peek_past_line_ends();
        std::uint64_t n = number(sc_.next(), "the number of ranks (2 or more)");
        if (n < 2 || n > 0x7fffffff) sc_.fail(t, "the number of ranks (2 or more)");
        num_ranks_ = static_cast<std::uint32_t>(n);
        rank_range_ = "a rank 0.." + std::to_string(n - 1);
        source_range_ = rank_range_ + " or 'any'";
        ScheduleBuilder b(num_ranks_, expected_ops_);
        // The ranks with a block so far: a set, since n may be 2^31 for a file of two lines.
        std::unordered_set<std::uint64_t> seen;
        while (sc_.peek_past_line_ends().kind != TokenKind::end) {
            if (!is_word(sc_.peek(), "rank")) sc_.fail(sc_.peek(), "'rank R {'");
            sc_.next();
            GoalToken r = sc_.next();
            std::uint64_t rank = number(r, rank_range_);
            if (rank >= n) sc_.fail(r, rank_range_);
            if (!seen.insert(rank).second)
                sc_.fail(r, "a rank without a block so far (rank " + std::to_string(rank) + " has one already)");
            if (!is_punct(sc_.peek_past_line_ends(), '{')) sc_.fail(sc_.peek(), "'{'");
            sc_.next();
            read_rank(b, static_cast<std::uint32_t>(rank));
        }
        return b.finish();
    }

private:
    // Statements end with ';' or the end of the line (or the block's '}').
    void read_rank(ScheduleBuilder& b, std::uint32_t rank) {
        labels_.clear();
        pending_.clear();
        for (;;) {
            GoalToken t = sc_.peek_past_line_ends();
            if (is_punct(t, ';')) {
                sc_.next();
                continue;
            }
            if (is_punct(t, '}')) {
                sc_.next();
                break;
            }
            if (t.kind != TokenKind::word)
                sc_.fail(t, "a statement (as in 'l1: send 8b to 1 tag 0' or 'l2 requires l1') or '}'");
            if (is_verb(t)) {
                op(b, rank, sc_.next());
                continue;
            }
            std::string label(sc_.next().text);
            GoalToken after = sc_.next();
            if (is_punct(after, ':')) {
                GoalToken verb = sc_.peek_past_line_ends();
                if (!is_verb(verb)) sc_.fail(verb, "send, recv or calc");
                std::uint32_t id = op(b, rank, sc_.next());
                if (!labels_.define(label, id))
                    sc_.fail({TokenKind::word, label, t.line},
                             "a label not used before in rank " + std::to_string(rank));
            } else if (is_word(after, "requires") || is_word(after, "irequires")) {
                dependency(b, label, after.text == "irequires");
            } else {
                sc_.fail(after, "':' after the label, or 'requires'/'irequires'");
            }
        }
        for (const PendingDependency& d : pending_) {
            std::uint32_t later = labels_.find(d.later), earlier = labels_.find(d.earlier);
            const std::string& missing = later == GoalLabels::kMissing ? d.later : d.earlier;
            if (later == GoalLabels::kMissing || earlier == GoalLabels::kMissing)
                sc_.fail({TokenKind::word, missing, d.line}, "a label defined in rank " + std::to_string(rank));
            d.at_start ? b.after_start(later, earlier) : b.after_end(later, earlier);
        }
    }

    void dependency(ScheduleBuilder& b, const std::string& later, bool at_start) {
        GoalToken e = sc_.peek_past_line_ends();
        if (e.kind != TokenKind::word) sc_.fail(e, at_start ? "a label after 'irequires'" : "a label after 'requires'");
        sc_.next();
        std::uint32_t l = labels_.find(later), r = labels_.find(e.text);
        if (l != GoalLabels::kMissing && r != GoalLabels::kMissing) {
            at_start ? b.after_start(l, r) : b.after_end(l, r);
        } else {
            pending_.push_back({later, std::string(e.text), e.line, at_start});
        }
        end_statement("';' or the end of the line");
    }

    // send SIZE to PEER [tag T] [cpu C] [nic N] | recv SIZE from PEER ... | calc NS [cpu C] [nic N]
    std::uint32_t op(ScheduleBuilder& b, std::uint32_t rank, const GoalToken& verb) {
        bool calc = verb.text == "calc", send = verb.text == "send";
        std::uint64_t size;
        std::int32_t peer = 0, tag = 0;
        if (calc) {
            size = number(required(), "a computation time in nanoseconds");
        } else {
            size = number(required(), "a size in bytes (as in '8b')", true);
            if (is_word(sc_.peek(), "b")) sc_.next();  // LogGOPSim also reads '8 b'
            GoalToken dir = required();
            if (!is_word(dir, send ? "to" : "from")) sc_.fail(dir, send ? "'to'" : "'from'");
            peer = this->peer(required(), send);
        }
        std::uint8_t cpu = 0, nic = 0;
        for (;;) {
            const GoalToken& t = sc_.peek();
            if (!calc && is_word(t, "tag")) {
                sc_.next();
                tag = this->tag(required());
            } else if (is_word(t, "cpu") || is_word(t, "nic")) {
                bool is_cpu = t.text == "cpu";
                sc_.next();
                GoalToken v = required();
                std::uint64_t n = number(v, "a number 0..255");
                if (n > 255) sc_.fail(v, "a number 0..255");
                (is_cpu ? cpu : nic) = static_cast<std::uint8_t>(n);
            } else {
                break;
            }
        }
        std::uint32_t id = calc   ? b.calc(rank, size)
                           : send ? b.send(rank, static_cast<std::uint32_t>(peer), size, tag)
                                  : b.recv(rank, peer, size, tag);
        b.place(id, cpu, nic);
        end_statement(calc ? "'cpu', 'nic', ';' or the end of the line"
                           : "'tag', 'cpu', 'nic', ';' or the end of the line");
        return id;
    }

    std::int32_t tag(const GoalToken& t) {
        if (t.text == "-1" || t.text == "any") return kAnyTag;
        std::uint64_t v = number(t, "a tag 0..2147483647 or -1 (any tag)");
        if (v > 0x7fffffff) sc_.fail(t, "a tag 0..2147483647 or -1 (any tag)");
        return static_cast<std::int32_t>(v);
    }

    std::int32_t peer(const GoalToken& t, bool send) {
        if (!send && (t.text == "any" || t.text == "-1")) return kAnySource;
        const std::string& what = send ? rank_range_ : source_range_;
        std::uint64_t p = number(t, what);
        if (p >= num_ranks_) sc_.fail(t, what);
        return static_cast<std::int32_t>(p);
    }

    // The next token, which may be on a later line (the project's free form).
    GoalToken required() {
        sc_.peek_past_line_ends();
        return sc_.next();
    }

    void end_statement(const char* expected) {
        const GoalToken& t = sc_.peek();
        if (is_punct(t, ';') || t.kind == TokenKind::line_end) {
            sc_.next();
        } else if (!is_punct(t, '}') && t.kind != TokenKind::end) {
            sc_.fail(t, expected);
        }
    }

    template <class What>
    std::uint64_t number(const GoalToken& t, const What& what, bool bytes_suffix = false) {
        std::string_view s = t.text;
        if (bytes_suffix && !s.empty() && s.back() == 'b') s.remove_suffix(1);
        if (t.kind != TokenKind::word || s.empty() || s.size() > 19) sc_.fail(t, what);
        std::uint64_t v = 0;
        for (char c : s) {
            if (c < '0' || c > '9') sc_.fail(t, what);
            v = v * 10 + static_cast<std::uint64_t>(c - '0');
        }
        return v;
    }

    GoalScanner sc_;
    std::uint64_t expected_ops_;
    std::uint32_t num_ranks_ = 0;
    std::string rank_range_, source_range_;  // "a rank 0..N-1" (and " or 'any'"), built once
    GoalLabels labels_;
    std::vector<PendingDependency> pending_;
};

}  // namespace

Schedule read_goal(std::istream& in, const std::string& name, std::uint64_t expected_ops) {
    return GoalReader(in, name, expected_ops).read();
}

Schedule read_goal_file(const std::string& path) {
    std::ifstream in;
    in.rdbuf()->pubsetbuf(nullptr, 0);  // unbuffered: the scanner's chunks are read straight from the file
    in.open(path, std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error(path + ": cannot open the GOAL file");
    // About 35 bytes of text per op in schedgen's files: reserve, do not regrow.
    std::uint64_t expected_ops = static_cast<std::uint64_t>(in.tellg()) / 35;
    in.seekg(0);
    return read_goal(in, path, expected_ops);
}

}  // namespace jobsentry::sim
