#include "symbolizer.h"

#include <elfutils/libdwfl.h>

#include <ctime>

#include "clock.h"
#include "mpi_classifier.h"

namespace jobsentry {
namespace {

constexpr double kRefreshSeconds = 2.0;

// No debuginfo search: symbol tables of the mapped files are enough to name
// frames, and looking for separate debug files would make the first lookup
// in each module slow on machines with many -dbg packages.
int no_debuginfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*, GElf_Word,
                 char**) {
    return -1;
}

const Dwfl_Callbacks kCallbacks = {
    dwfl_linux_proc_find_elf,
    no_debuginfo,
    nullptr,
    nullptr,
};

}  // namespace

Symbolizer::Symbolizer(pid_t pid) : pid_(pid) {}

Symbolizer::~Symbolizer() {
    if (dwfl_) dwfl_end(dwfl_);
}

bool Symbolizer::report_modules() {
    last_report_ = monotonic_now();
    if (!dwfl_) dwfl_ = dwfl_begin(&kCallbacks);
    if (!dwfl_) return false;
    dwfl_report_begin(dwfl_);
    int rc = dwfl_linux_proc_report(dwfl_, pid_);
    dwfl_report_end(dwfl_, nullptr, nullptr);
    // Module pointers may be reused by the new report: drop what refers to them.
    mpi_module_.clear();
    functions_.clear();
    unnamed_.clear();
    return rc == 0;
}

Dwfl_Module* Symbolizer::find_module(uint64_t pc) {
    if (!dwfl_) report_modules();
    if (!dwfl_) return nullptr;
    Dwfl_Module* module = dwfl_addrmodule(dwfl_, pc);
    if (!module && monotonic_now() - last_report_ > kRefreshSeconds) {
        report_modules();
        module = dwfl_addrmodule(dwfl_, pc);
    }
    return module;
}

Symbol Symbolizer::lookup(uint64_t pc) {
    auto range = functions_.upper_bound(pc);
    if (range != functions_.begin() && pc < std::prev(range)->second.end) return std::prev(range)->second.symbol;
    auto unnamed = unnamed_.find(pc);
    if (unnamed != unnamed_.end()) return unnamed->second;

    Symbol out;
    Dwfl_Module* module = find_module(pc);
    if (!module) return out;
    out.module = dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    auto cached = mpi_module_.find(module);
    if (cached == mpi_module_.end())
        cached = mpi_module_.emplace(module, out.module && is_mpi_library_path(out.module)).first;
    out.mpi_library = cached->second;

    GElf_Off offset = 0;
    GElf_Sym sym;
    out.function = dwfl_module_addrinfo(module, pc, &offset, &sym, nullptr, nullptr, nullptr);
    if (functions_.size() + unnamed_.size() >= kMaxCached) {
        functions_.clear();
        unnamed_.clear();
    }
    if (out.function && sym.st_size > 0 && offset < sym.st_size)
        functions_[pc - offset] = Range{pc - offset + sym.st_size, out};
    else
        unnamed_[pc] = out;
    return out;
}

}  // namespace jobsentry
