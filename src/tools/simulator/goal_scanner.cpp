#include "tools/simulator/goal_scanner.h"

#include <cstring>
#include <stdexcept>

namespace jobsentry::sim {
namespace {

constexpr size_t kChunk = size_t{4} << 20;
// The first buffer: a short file costs 1 KiB, not a zeroed kChunk (fuzz_goal
// ran at 277 inputs/s for that); big files reach kChunk after 12 reads.
constexpr size_t kFirstChunk = size_t{1} << 10;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_punct(char c) { return c == ';' || c == ':' || c == '{' || c == '}'; }

}  // namespace

GoalScanner::GoalScanner(std::istream& in, std::string name) : in_(in), name_(std::move(name)), buf_(kFirstChunk) {}

// Keeps the unread bytes, reads more and exposes the whole lines among them
// (all of the rest at the end of the input), so no token or `*/` straddles a
// refill. A line longer than the buffer doubles it, and so does a full read
// until the buffer is kChunk.
bool GoalScanner::refill() {
    for (;;) {
        std::memmove(buf_.data(), buf_.data() + pos_, filled_ - pos_);
        filled_ -= pos_;
        pos_ = 0;
        if (!eof_) {
            if (filled_ == buf_.size() || (read_full_ && buf_.size() < kChunk)) buf_.resize(buf_.size() * 2);
            const size_t want = buf_.size() - filled_;
            in_.read(buf_.data() + filled_, static_cast<std::streamsize>(want));
            const size_t got = static_cast<size_t>(in_.gcount());
            filled_ += got;
            read_full_ = got == want;
            eof_ = !in_;
        }
        if (eof_) {
            lines_end_ = filled_;
            return filled_ > 0;
        }
        const void* nl = memrchr(buf_.data(), '\n', filled_);
        if (nl) {
            lines_end_ = static_cast<size_t>(static_cast<const char*>(nl) - buf_.data()) + 1;
            return true;
        }
    }
}

void GoalScanner::skip_block_comment() {
    GoalToken start{TokenKind::word, "/*", line_};
    pos_ += 2;
    for (;;) {
        for (; pos_ + 1 < lines_end_; ++pos_) {
            if (buf_[pos_] == '\n') ++line_;
            if (buf_[pos_] == '*' && buf_[pos_ + 1] == '/') {
                pos_ += 2;
                return;
            }
        }
        if (pos_ < lines_end_ && buf_[pos_] == '\n') ++line_;
        pos_ = lines_end_;
        if (!refill()) fail(start, "'*/' to close the comment that starts here");
    }
}

void GoalScanner::scan() {
    for (;;) {
        if (pos_ == lines_end_ && !refill()) {
            tok_ = {TokenKind::end, {}, after_line_end_ && line_ > 1 ? line_ - 1 : line_};
            return;
        }
        const char* b = buf_.data();
        char c = b[pos_];
        char after = pos_ + 1 < lines_end_ ? b[pos_ + 1] : '\0';
        if (is_space(c)) {
            ++pos_;
        } else if (c == '\n') {
            tok_ = {TokenKind::line_end, {b + pos_, 1}, line_++};
            ++pos_;
            after_line_end_ = true;
            return;
        } else if (c == '#' || (c == '/' && after == '/')) {
            const void* nl = std::memchr(b + pos_, '\n', lines_end_ - pos_);
            pos_ = nl ? static_cast<size_t>(static_cast<const char*>(nl) - b) : lines_end_;
        } else if (c == '/' && after == '*') {
            skip_block_comment();
        } else if (is_punct(c)) {
            tok_ = {TokenKind::punct, {b + pos_, 1}, line_};
            ++pos_;
            after_line_end_ = false;
            return;
        } else {
            size_t start = pos_;
            while (pos_ < lines_end_) {
                char w = b[pos_];
                if (is_space(w) || w == '\n' || is_punct(w) || w == '#' ||
                    (w == '/' && pos_ + 1 < lines_end_ && (b[pos_ + 1] == '/' || b[pos_ + 1] == '*')))
                    break;
                ++pos_;
            }
            tok_ = {TokenKind::word, {b + start, pos_ - start}, line_};
            after_line_end_ = false;
            return;
        }
    }
}

void GoalScanner::fail(const GoalToken& at, const std::string& expected) const {
    std::string found = at.kind == TokenKind::end        ? "the end of the file"
                        : at.kind == TokenKind::line_end ? "the end of the line"
                                                         : "'" + std::string(at.text) + "'";
    throw std::runtime_error(name_ + ":" + std::to_string(at.line) + ": expected " + expected + ", found " + found);
}

}  // namespace jobsentry::sim
