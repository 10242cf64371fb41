// An interned name: an accumulate operation or a basic type ("MPI_SUM",
// "MPI_DOUBLE"). Every RMA event and every access carries two of them, and
// there are millions of those in a long run but a handful of distinct names:
// one copy of each for the whole process, so that events are smaller and a
// name is copied and compared as a pointer (the analysis copied and compared
// strings per event and per pair before).
#pragma once

#include <string>
#include <string_view>

namespace rmacheck {

class Name {
public:
    Name() = default;  // ""
    Name(std::string_view text);  // NOLINT(google-explicit-constructor): a name is its text
    Name(const std::string& text) : Name(std::string_view(text)) {}  // NOLINT
    Name(const char* text) : Name(std::string_view(text)) {}        // NOLINT

    const std::string& str() const { return *text_; }
    bool empty() const { return text_->empty(); }

    // Equal names are the same interned string.
    friend bool operator==(Name a, Name b) { return a.text_ == b.text_; }
    friend bool operator!=(Name a, Name b) { return a.text_ != b.text_; }
    // By text, so that maps keyed by names order the same way in every run.
    friend bool operator<(Name a, Name b) { return a.text_ != b.text_ && *a.text_ < *b.text_; }

private:
    static const std::string* empty_text();
    const std::string* text_ = empty_text();
};

}  // namespace rmacheck
