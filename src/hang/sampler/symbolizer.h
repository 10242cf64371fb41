// Per-process symbol cache built on elfutils' libdwfl: /proc/PID/maps is read
// once per process, and each mapped ELF's symbol and unwind tables once per
// supervisor, shared by every rank that maps the file (binary_symbols.h;
// without a BinaryCache, once per process). libdwfl's address lookup
// scans a module's symbols linearly (about 50 us in libc), so every resolved
// function is kept as an address range: later PCs anywhere in that function
// are a map lookup. The maps are re-read only when a PC falls outside every
// known module (a library was dlopen'ed), and at most once per interval.
// In front of the map, the PCs last looked up, one per slot of a small table:
// a rank's samples repeat the same return addresses, and the supervisor runs
// cache-cold between samples, where each level of the map is a cache miss.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "hang/sampler/binary_symbols.h"

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
    // binaries: the tables shared with other processes (may be null); it must outlive lookups.
    explicit Symbolizer(pid_t pid, BinaryCache* binaries = nullptr);
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    // pc: for caller frames pass the return address minus one so that calls at
    // the very end of a function resolve to the caller, not the next function.
    Symbol lookup(uint64_t pc);

    // The process's bytes at addr where the file mapped there holds them unchanged (code, unwind
    // tables: BinarySymbols::read_unchanged), from the file's copy shared by every rank; false
    // elsewhere (stack, heap, writable data, a module not known yet), and the caller reads the
    // process. The first word served of each module is compared with the process's own (the
    // file named in its maps may not be the one mapped: another mount namespace). Modules are those
    // of the last refresh (a lookup of a PC in none): as for names, and for libunwind's own caches,
    // a library unloaded and another mapped at its very addresses is not seen. On success, *span
    // (if given) is the whole section served, at the process's addresses: the unwinder reads some
    // 4,000 words a CP2K sample, nearly all from the section of the word before (stack_snapshot.cpp).
    bool read_unchanged(uint64_t addr, void* into, size_t bytes, BinarySymbols::Span* span = nullptr);

private:
    bool report_modules();
    Dwfl_Module* find_module(uint64_t pc);
    // Where a module's tables are read: its file's shared copy, whose addresses are
    // the process's minus *bias; else the module itself (bias 0).
    Dwfl_Module* tables_of(Dwfl_Module* module, uint64_t* bias);
    struct Shared;
    Shared& shared_of(Dwfl_Module* module);
    // For a PC no symbol covers: a name "module+0xSTART" and the [start, end)
    // of the function that the unwind tables (FDEs) place it in.
    std::optional<std::pair<std::string, std::pair<uint64_t, uint64_t>>> unwind_range(Dwfl_Module* module,
                                                                                      uint64_t pc);

    struct Range {
        uint64_t end;
        Symbol symbol;
    };
    static constexpr size_t kMaxCached = 65536;  // bounds memory on pathological code
    Symbol resolve(uint64_t pc);
    struct RecentPc {
        uint64_t pc = 0;  // 0: empty
        Symbol symbol;
    };
    static constexpr size_t kRecentPcs = 512;  // 16 KB a process; a CP2K rank shows ~300 distinct PCs

    pid_t pid_;
    std::map<uint64_t, Range> functions_;            // start -> [start, end) and its symbol
    std::unordered_map<uint64_t, Symbol> unnamed_;  // PCs neither a symbol nor an FDE covers
    std::deque<std::string> names_;  // "module+0xSTART" of stripped functions not kept by their file (binary_symbols.h)
    std::array<RecentPc, kRecentPcs> recent_{};     // emptied with functions_ (names point into names_ and shared_)
    Dwfl* dwfl_ = nullptr;
    double last_report_ = -1e9;
    std::unordered_map<const Dwfl_Module*, bool> mpi_module_;
    struct Shared {
        std::shared_ptr<BinarySymbols> symbols;  // null: read this process's module
        uint64_t bias = 0;
        bool checked = false;  // read_unchanged compared its first word served with the process's
        bool differs = false;  // ... and they differed: nothing of this module is served
    };
    BinaryCache* binaries_;
    std::unordered_map<const Dwfl_Module*, Shared> shared_;  // kept alive: names point into them
    struct LastRead {
        uint64_t lo = 0, hi = 0;  // the module's addresses in the process
        BinarySymbols* symbols = nullptr;
        uint64_t bias = 0;
        Shared* shared = nullptr;
    } last_read_;  // read_unchanged's module, while shared_ keeps it
};

}  // namespace jobsentry
