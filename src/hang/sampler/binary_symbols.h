// The symbol table and unwind table (.eh_frame) of each ELF file the ranks
// map, read once per supervisor however many ranks map it. Every rank of a
// job maps the same binaries (the application, libmpi, libc), each at its own
// addresses (ASLR): libdwfl keyed by process would read a 45 MB binary's
// symbols once per rank. Here each file is opened by libdwfl once, at its
// link-time addresses (p_vaddr), and a process's PC is looked up as PC minus
// that process's load bias. Files are told apart by build id, or by device,
// inode, modification time and size when they have none; files mapped from
// memory only (the vDSO) are not shared. At most kMaxBinaries files are
// indexed; a Symbolizer keeps those it uses alive, so that the names it
// handed out stay valid.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Dwfl;
struct Dwfl_Module;

namespace jobsentry {

// libdwfl's find_debuginfo callback for every Dwfl of the sampler: no search.
// Symbol tables name frames, and looking for separate debug files would make
// the first lookup in each module slow on machines with many -dbg packages.
int dwfl_no_debuginfo(Dwfl_Module*, void**, const char*, std::uint64_t, const char*, const char*, std::uint32_t,
                      char**);

class BinarySymbols {
public:
    // The file at path, opened at its link-time addresses; nullptr when it cannot be read as ELF.
    static std::unique_ptr<BinarySymbols> open(const std::string& path);
    ~BinarySymbols();
    BinarySymbols(const BinarySymbols&) = delete;
    BinarySymbols& operator=(const BinarySymbols&) = delete;
    Dwfl_Module* module() const { return module_; }

    // The file's bytes at its link-time address vaddr, where every process that maps the file holds
    // them unchanged: allocated sections that are not writable (the loader relocates RELRO's .got
    // and .data.rel.ro, which are), of a file without text relocations. The unwinder's
    // reads of .eh_frame_hdr and .eh_frame are served from here instead of from each rank's memory
    // (stack_snapshot.h). False when the range is not such a section's. On success, *span (if
    // given) is the whole section read from, for the caller's next reads without a call.
    struct Span {
        uint64_t lo = 0, hi = 0;  // addresses: [lo, hi) holds bytes[0 .. hi - lo)
        const unsigned char* bytes = nullptr;
        bool covers(uint64_t addr, size_t n) const { return addr >= lo && addr < hi && n <= hi - addr; }
    };
    bool read_unchanged(uint64_t vaddr, void* into, size_t bytes, Span* span = nullptr);

    // The functions already named in this file, at its link-time addresses, for every rank that
    // maps it: a rank meets a function first after another rank has (a stripped CP2K rank names
    // ~180 functions through its first minutes, each costing a search of the symbol table and of
    // .eh_frame). A name is a symbol of the file's table or one kept here; both live as long as
    // this object. At most kMaxFunctions ranges; when full, new ones are not remembered.
    struct Function {
        uint64_t lo, hi;
        const char* name;
    };
    const Function* function_at(uint64_t vaddr) const;
    // Remembers [lo, hi) as the function `name` (a string of the file's symbol table), or as a
    // name kept here (`kept`); returns the name as stored.
    const char* remember(uint64_t lo, uint64_t hi, const char* name);
    const char* remember_kept(uint64_t lo, uint64_t hi, const std::string& kept);
    static constexpr size_t kMaxFunctions = 65536;

private:
    struct Section {
        uint64_t lo, hi;  // link-time addresses
        void* scn;        // Elf_Scn*, its bytes read at the first use
        const unsigned char* bytes = nullptr;
    };
    BinarySymbols() = default;
    void index_sections();
    Dwfl* dwfl_ = nullptr;
    Dwfl_Module* module_ = nullptr;
    bool indexed_ = false;
    std::vector<Section> sections_;
    size_t last_ = 0;  // the section of the previous read: the unwinder reads runs of words
    std::map<uint64_t, Function> functions_;  // by lo
    std::deque<std::string> kept_names_;      // names made here ("module+0xSTART" of stripped code)
};

class BinaryCache {
public:
    // The shared copy of the file that a process's module maps, and that
    // module's load bias (process address = file address + bias); nullptr
    // when the file cannot be named or read (then use the process's module).
    std::shared_ptr<BinarySymbols> get(Dwfl_Module* process_module, uint64_t* bias);
    uint64_t files_opened() const { return opened_; }

private:
    static constexpr size_t kMaxBinaries = 256;
    std::map<std::string, std::shared_ptr<BinarySymbols>> by_key_;
    std::deque<std::string> order_;  // oldest first, for the bound
    uint64_t opened_ = 0;
};

}  // namespace jobsentry
