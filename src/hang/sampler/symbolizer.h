// Per-process symbol cache built on elfutils' libdwfl: /proc/PID/maps is read
// once and each mapped ELF's symbol table once. libdwfl's address lookup
// scans a module's symbols linearly (about 50 us in libc), so every resolved
// function is kept as an address range: later PCs anywhere in that function
// are a map lookup. The maps are re-read only when a PC falls outside every
// known module (a library was dlopen'ed), and at most once per interval.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

struct Dwfl;
struct Dwfl_Module;

namespace jobsentry {

struct Symbol {
    const char* function = nullptr;  // owned by the symbolizer; valid until it is destroyed
    const char* module = nullptr;
    bool mpi_library = false;
};

class Symbolizer {
public:
    explicit Symbolizer(pid_t pid);
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    // pc: for caller frames pass the return address minus one so that calls at
    // the very end of a function resolve to the caller, not the next function.
    Symbol lookup(uint64_t pc);

private:
    bool report_modules();
    Dwfl_Module* find_module(uint64_t pc);
    // For a PC no symbol covers: a name "module+0xSTART" and the [start, end)
    // of the function that the unwind tables (FDEs) place it in.
    std::optional<std::pair<const char*, std::pair<uint64_t, uint64_t>>> unwind_range(Dwfl_Module* module,
                                                                                      uint64_t pc);

    struct Range {
        uint64_t end;
        Symbol symbol;
    };
    static constexpr size_t kMaxCached = 65536;  // bounds memory on pathological code

    pid_t pid_;
    std::map<uint64_t, Range> functions_;            // start -> [start, end) and its symbol
    std::unordered_map<uint64_t, Symbol> unnamed_;  // PCs neither a symbol nor an FDE covers
    std::deque<std::string> names_;                 // "module+0xSTART" of stripped functions
    Dwfl* dwfl_ = nullptr;
    double last_report_ = -1e9;
    std::unordered_map<const Dwfl_Module*, bool> mpi_module_;
};

}  // namespace jobsentry
