#include "goal_reader.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace jobsentry::sim {
namespace {

struct Token {
    std::string text;  // empty at the end of the input
    size_t line;
};

class Lexer {
public:
    Lexer(std::istream& in, std::string name) : name_(std::move(name)) {
        std::string line;
        size_t n = 0;
        while (std::getline(in, line)) {
            ++n;
            size_t cut = std::min(line.find("//"), line.find('#'));
            if (cut != std::string::npos) line.resize(cut);
            std::string word;
            for (char c : line) {
                bool punct = c == ';' || c == ':' || c == '{' || c == '}';
                if (std::isspace(static_cast<unsigned char>(c)) || punct) {
                    if (!word.empty()) tokens_.push_back({word, n});
                    word.clear();
                    if (punct) tokens_.push_back({std::string(1, c), n});
                } else {
                    word += c;
                }
            }
            if (!word.empty()) tokens_.push_back({word, n});
        }
        end_line_ = n;
    }

    const Token& peek() {
        static const Token end{"", 0};
        return pos_ < tokens_.size() ? tokens_[pos_] : end;
    }
    Token next() {
        Token t = peek();
        if (t.text.empty()) t.line = end_line_;
        ++pos_;
        return t;
    }
    [[noreturn]] void fail(const Token& at, const std::string& expected) const {
        throw std::runtime_error(name_ + ":" + std::to_string(at.text.empty() ? end_line_ : at.line) +
                                 ": expected " + expected + ", found " +
                                 (at.text.empty() ? std::string("the end of the file") : "'" + at.text + "'"));
    }
    void expect(const std::string& word, const std::string& what = "") {
        Token t = next();
        if (t.text != word) fail(t, what.empty() ? "'" + word + "'" : what);
    }
    std::uint64_t number(const std::string& what, bool bytes_suffix = false) {
        Token t = next();
        std::string s = t.text;
        if (bytes_suffix && !s.empty() && s.back() == 'b') s.pop_back();
        if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) fail(t, what);
        return std::stoull(s);
    }

private:
    std::string name_;
    std::vector<Token> tokens_;
    size_t pos_ = 0;
    size_t end_line_ = 0;
};

struct Dependency {
    Token later, earlier;
    bool at_start;
};

void read_rank(Lexer& lx, ScheduleBuilder& b, std::uint32_t rank, std::uint32_t num_ranks) {
    std::unordered_map<std::string, std::uint32_t> labels;
    std::vector<Dependency> deps;
    const std::string rank_range = "a rank 0.." + std::to_string(num_ranks - 1);
    for (;;) {
        Token label = lx.next();
        if (label.text == "}") break;
        if (label.text.empty() || label.text == ";" || label.text == ":" || label.text == "{")
            lx.fail(label, "a label (as in 'l1: send 8b to 1 tag 0;') or '}'");
        Token t = lx.next();
        if (t.text == "requires" || t.text == "irequires") {
            deps.push_back({label, lx.next(), t.text == "irequires"});
            if (deps.back().earlier.text.empty() || deps.back().earlier.text == ";")
                lx.fail(deps.back().earlier, "a label after '" + t.text + "'");
            lx.expect(";");
            continue;
        }
        if (t.text != ":") lx.fail(t, "':' after the label, or 'requires'/'irequires'");
        if (labels.count(label.text)) lx.fail(label, "a label not used before in rank " + std::to_string(rank));
        Token verb = lx.next();
        std::uint32_t id;
        if (verb.text == "send" || verb.text == "recv") {
            bool send = verb.text == "send";
            std::uint64_t size = lx.number("a size in bytes (as in '8b')", true);
            lx.expect(send ? "to" : "from");
            Token peer = lx.next();
            std::int64_t p;
            if (!send && (peer.text == "any" || peer.text == "-1")) {
                p = kAnySource;
            } else {
                if (peer.text.empty() || peer.text.find_first_not_of("0123456789") != std::string::npos ||
                    peer.text.size() > 10 || std::stoull(peer.text) >= num_ranks)
                    lx.fail(peer, rank_range + (send ? "" : " or 'any'"));
                p = static_cast<std::int64_t>(std::stoull(peer.text));
            }
            std::int32_t tag = 0;
            if (lx.peek().text == "tag") {
                lx.next();
                std::uint64_t v = lx.number("a tag 0..2147483647");
                if (v > 0x7fffffff) lx.fail(Token{std::to_string(v), lx.peek().line}, "a tag 0..2147483647");
                tag = static_cast<std::int32_t>(v);
            }
            id = send ? b.send(rank, static_cast<std::uint32_t>(p), size, tag)
                      : b.recv(rank, static_cast<std::int32_t>(p), size, tag);
        } else if (verb.text == "calc") {
            id = b.calc(rank, lx.number("a computation time in nanoseconds"));
        } else {
            lx.fail(verb, "send, recv or calc");
        }
        lx.expect(";", "';' after the operation (cpu/nic placement is not supported)");
        labels.emplace(label.text, id);
    }
    for (const Dependency& d : deps) {
        auto later = labels.find(d.later.text), earlier = labels.find(d.earlier.text);
        if (later == labels.end()) lx.fail(d.later, "a label defined in rank " + std::to_string(rank));
        if (earlier == labels.end()) lx.fail(d.earlier, "a label defined in rank " + std::to_string(rank));
        d.at_start ? b.after_start(later->second, earlier->second) : b.after_end(later->second, earlier->second);
    }
}

}  // namespace

Schedule read_goal(std::istream& in, const std::string& name) {
    Lexer lx(in, name);
    lx.expect("num_ranks", "'num_ranks N' at the start");
    std::uint64_t n = lx.number("the number of ranks (2 or more)");
    if (n < 2 || n > 0x7fffffff) lx.fail(Token{std::to_string(n), 1}, "the number of ranks (2 or more)");
    ScheduleBuilder b(static_cast<std::uint32_t>(n));
    std::vector<bool> seen(n);
    while (!lx.peek().text.empty()) {
        lx.expect("rank", "'rank R {'");
        Token r = lx.peek();
        std::uint64_t rank = lx.number("a rank 0.." + std::to_string(n - 1));
        if (rank >= n) lx.fail(r, "a rank 0.." + std::to_string(n - 1));
        if (seen[rank]) lx.fail(r, "a rank without a block so far (rank " + r.text + " has one already)");
        seen[rank] = true;
        lx.expect("{");
        read_rank(lx, b, static_cast<std::uint32_t>(rank), static_cast<std::uint32_t>(n));
    }
    return b.finish();
}

Schedule read_goal_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open the GOAL file");
    return read_goal(in, path);
}

}  // namespace jobsentry::sim
