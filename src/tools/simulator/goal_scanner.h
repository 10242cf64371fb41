// Tokens of a GOAL text, read in chunks so that a 100 MB schedule costs a
// buffer of a few MiB rather than a copy of the file. Words, the punctuation
// ';' ':' '{' '}' and line ends are tokens (schedgen ends statements with a
// line end, the project's form with ';'); comments (`//`, `#` to the end of
// the line, `/* ... */`) are skipped.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace jobsentry::sim {

enum class TokenKind : std::uint8_t { word, punct, line_end, end };

struct GoalToken {
    TokenKind kind = TokenKind::end;
    std::string_view text;  // valid until the scanner reads past the current line
    std::uint64_t line = 0;
};

class GoalScanner {
public:
    GoalScanner(std::istream& in, std::string name);

    const GoalToken& peek() { return have_ ? tok_ : (scan(), have_ = true, tok_); }
    GoalToken next() {
        peek();
        have_ = false;
        return tok_;
    }
    // Skips line ends (where a statement may go on, or between statements).
    const GoalToken& peek_past_line_ends() {
        while (peek().kind == TokenKind::line_end) next();
        return tok_;
    }

    // Throws std::runtime_error "NAME:LINE: expected WHAT, found 'TOKEN'".
    [[noreturn]] void fail(const GoalToken& at, const std::string& expected) const;
    const std::string& name() const { return name_; }

private:
    void scan();
    bool refill();  // false at the end of the input
    void skip_block_comment();

    std::istream& in_;
    std::string name_;
    std::vector<char> buf_;
    size_t pos_ = 0, lines_end_ = 0, filled_ = 0;  // [pos_, lines_end_) holds whole lines
    bool eof_ = false;
    bool read_full_ = false;  // the last read filled the buffer: grow it (up to kChunk)
    std::uint64_t line_ = 1;
    GoalToken tok_;
    bool have_ = false;
    bool after_line_end_ = false;  // the end of the file is reported on the last line, not after it
};

}  // namespace jobsentry::sim
