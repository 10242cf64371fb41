// What every fuzz target shares: the input as text, checks that stay on in
// every build type (assert() would vanish under NDEBUG), and the entry point.
// A target is written as
//   FUZZ_TEXT_TARGET(text) { ...call the product's parser on text... }
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace jobsentry::fuzz {

[[noreturn]] inline void fail(const char* what, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    std::abort();  // libFuzzer saves the input as a crash
}

// (before, after) the first sep; (text, "") when there is none.
inline std::pair<std::string, std::string> split_once(const std::string& text, char sep) {
    const size_t at = text.find(sep);
    if (at == std::string::npos) return {text, ""};
    return {text.substr(0, at), text.substr(at + 1)};
}

}  // namespace jobsentry::fuzz

#define FUZZ_CHECK(cond) ((cond) ? (void)0 : ::jobsentry::fuzz::fail(#cond, __FILE__, __LINE__))

#define FUZZ_TEXT_TARGET(text)                                                          \
    static void fuzz_one(const std::string& text);                                      \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {           \
        fuzz_one(std::string(reinterpret_cast<const char*>(data), size));               \
        return 0;                                                                       \
    }                                                                                   \
    static void fuzz_one(const std::string& text)
