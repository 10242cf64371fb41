#include "hang/sampler/symbolizer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "base/clock.h"
#include "hang/sampler/binary_symbols.h"
#include "hang/sampler/mpi_classifier.h"

namespace jobsentry {
namespace {

constexpr double kRefreshSeconds = 2.0;

// A file the process maps, opened as the process sees it: through /proc/PID/root, its own root
// and mount namespace. In a container (Apptainer, Podman, a chroot) the path in its maps names its
// image's file, and libdwfl's own find_elf would open ours: another libc, no libmpi at all, names and
// MPI frames silently wrong. libunwind-ptrace opens its unwind tables the same way (os-linux.c).
// The module's userdata holds the pid (report_modules). Never blocks: a path swapped for a FIFO or
// a device between its mapping and our open is refused (O_NONBLOCK, then fstat), as libdwfl does.
int find_elf_in_process_root(Dwfl_Module* module, void** userdata, const char* name, Dwarf_Addr base,
                             char** file_name, Elf** elf) {
    const auto pid = userdata ? static_cast<pid_t>(reinterpret_cast<intptr_t>(*userdata)) : 0;
    const size_t length = name ? std::strlen(name) : 0;
    const char deleted[] = " (deleted)";
    const bool is_deleted = length >= sizeof deleted - 1 && std::strcmp(name + length - (sizeof deleted - 1), deleted) == 0;
    if (pid > 0 && length > 0 && name[0] == '/' && !is_deleted) {
        const std::string path = "/proc/" + std::to_string(pid) + "/root" + name;
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        struct stat st {};
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            *file_name = strdup(path.c_str());
            if (*file_name) return fd;
        }
        if (fd >= 0) close(fd);
    }
    return dwfl_linux_proc_find_elf(module, userdata, name, base, file_name, elf);
}

const Dwfl_Callbacks kCallbacks = {
    find_elf_in_process_root,
    dwfl_no_debuginfo,
    nullptr,
    nullptr,
};

int set_pid(Dwfl_Module*, void** userdata, const char*, Dwarf_Addr, void* pid) {
    *userdata = pid;
    return DWARF_CB_OK;
}

}  // namespace

Symbolizer::Symbolizer(pid_t pid, BinaryCache* binaries) : pid_(pid), binaries_(binaries) {}

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
    // Read by find_elf_in_process_root, when a module's file is first needed.
    dwfl_getmodules(dwfl_, set_pid, reinterpret_cast<void*>(static_cast<intptr_t>(pid_)), 0);
    // Module pointers may be reused by the new report: drop what refers to them.
    mpi_module_.clear();
    last_read_ = {};
    functions_.clear();
    shared_.clear();
    unnamed_.clear();
    names_.clear();
    recent_.fill(RecentPc{});  // its names point into what was just dropped
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

Symbolizer::Shared& Symbolizer::shared_of(Dwfl_Module* module) {
    auto it = shared_.find(module);
    if (it == shared_.end()) {
        Shared entry;
        if (binaries_) entry.symbols = binaries_->get(module, &entry.bias);
        it = shared_.emplace(module, std::move(entry)).first;
    }
    return it->second;
}

Dwfl_Module* Symbolizer::tables_of(Dwfl_Module* module, uint64_t* bias) {
    *bias = 0;
    const Shared& shared = shared_of(module);
    if (!shared.symbols) return module;
    *bias = shared.bias;
    return shared.symbols->module();
}

bool Symbolizer::read_unchanged(uint64_t addr, void* into, size_t bytes, BinarySymbols::Span* span) {
    // The unwinder reads word by word, nearly always in the module of its previous read.
    if (addr < last_read_.lo || addr >= last_read_.hi) {
        if (!dwfl_) report_modules();
        if (!dwfl_) return false;
        // No refresh on a miss (find_module's): the unwinder also reads stack and heap, in no module.
        Dwfl_Module* module = dwfl_addrmodule(dwfl_, addr);
        Dwarf_Addr lo = 0, hi = 0;
        if (!module || !dwfl_module_info(module, nullptr, &lo, &hi, nullptr, nullptr, nullptr, nullptr)) return false;
        Shared& shared = shared_of(module);
        if (!shared.symbols || shared.differs) return false;
        last_read_ = {lo, hi, shared.symbols.get(), shared.bias, &shared};
    }
    BinarySymbols::Span section;
    if (!last_read_.symbols->read_unchanged(addr - last_read_.bias, into, bytes, &section)) return false;
    if (!last_read_.shared->checked) {
        // The file named in the process's maps may not be the one mapped (another mount namespace,
        // a file replaced since): the first word served of each module is compared with the process's.
        last_read_.shared->checked = true;
        unsigned char live[16];
        iovec local{live, std::min(bytes, sizeof live)};
        iovec remote{reinterpret_cast<void*>(addr), local.iov_len};
        if (process_vm_readv(pid_, &local, 1, &remote, 1, 0) != static_cast<ssize_t>(local.iov_len) ||
            std::memcmp(live, into, local.iov_len) != 0) {
            last_read_.shared->differs = true;
            last_read_ = {};
            return false;
        }
    }
    if (span) {  // the section at the process's addresses, within the module's
        const uint64_t lo = std::max(section.lo + last_read_.bias, last_read_.lo);
        const uint64_t hi = std::min(section.hi + last_read_.bias, last_read_.hi);
        *span = lo < hi ? BinarySymbols::Span{lo, hi, section.bytes + (lo - last_read_.bias - section.lo)}
                        : BinarySymbols::Span{};
    }
    return true;
}

Symbol Symbolizer::lookup(uint64_t pc) {
    // Fibonacci hashing: return addresses share their low bits' alignment, the high product bits do not.
    RecentPc& slot = recent_[(pc * 0x9E3779B97F4A7C15ull) >> (64 - 9)];
    static_assert(kRecentPcs == 1u << 9, "the shift above takes log2(kRecentPcs) bits");
    if (slot.pc == pc && pc != 0) return slot.symbol;
    Symbol out = resolve(pc);
    if (!out.module) return out;  // in no known module: looked up again, so a library mapped later is found
    slot.pc = pc;
    slot.symbol = out;
    return out;
}

Symbol Symbolizer::resolve(uint64_t pc) {
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

    uint64_t bias = 0;
    Dwfl_Module* tables = tables_of(module, &bias);
    BinarySymbols* file = shared_of(module).symbols.get();
    if (file) {
        if (const BinarySymbols::Function* f = file->function_at(pc - bias)) {  // named for another rank
            out.function = f->name;
            functions_[f->lo + bias] = Range{f->hi + bias, out};
            return out;
        }
    }
    GElf_Off offset = 0;
    GElf_Sym sym;
    const char* name = dwfl_module_addrinfo(tables, pc - bias, &offset, &sym, nullptr, nullptr, nullptr);
    // A symbol counts only when its size covers the PC: in a stripped binary
    // the nearest symbol below a PC (_init, some exported function) is
    // usually another function, and naming the frame after it would merge
    // unrelated code.
    const bool covered = name && sym.st_size > 0 && offset < sym.st_size;
    if (functions_.size() + unnamed_.size() >= kMaxCached) {
        functions_.clear();
        unnamed_.clear();
        names_.clear();
        recent_.fill(RecentPc{});
    }
    if (covered) {
        out.function = name;
        functions_[pc - offset] = Range{pc - offset + sym.st_size, out};
        if (file) file->remember(pc - bias - offset, pc - bias - offset + sym.st_size, name);
        return out;
    }
    if (auto range = unwind_range(tables, pc - bias)) {
        const auto [lo, hi] = range->second;
        out.function = file ? file->remember_kept(lo, hi, range->first) : nullptr;
        if (!out.function) {
            names_.push_back(std::move(range->first));
            out.function = names_.back().c_str();
        }
        functions_[lo + bias] = Range{hi + bias, out};
        return out;
    }
    out.function = name;  // a size-less symbol (assembly) is better than nothing
    unnamed_[pc] = out;
    return out;
}

std::optional<std::pair<std::string, std::pair<uint64_t, uint64_t>>> Symbolizer::unwind_range(Dwfl_Module* module,
                                                                                               uint64_t pc) {
    // Stripped code has no symbols, but it keeps .eh_frame (the unwinder
    // needs it), whose FDEs delimit functions. The frame is named after its
    // module and the function's start in the file ("app+0x4a10", as
    // addr2line takes it): stable across samples and runs, so call chains of
    // stripped programs are compared function by function like named ones.
    Dwarf_Addr bias = 0;
    Dwarf_CFI* cfi = dwfl_module_eh_cfi(module, &bias);
    if (!cfi) cfi = dwfl_module_dwarf_cfi(module, &bias);
    if (!cfi) return std::nullopt;
    Dwarf_Frame* frame = nullptr;
    if (dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0 || !frame) return std::nullopt;
    Dwarf_Addr start = 0, end = 0;
    bool signal = false;
    const int rc = dwarf_frame_info(frame, &start, &end, &signal);
    free(frame);
    if (rc < 0 || end <= start) return std::nullopt;
    const char* path = dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    std::string base = path ? path : "?";
    base = base.substr(base.find_last_of('/') + 1);
    char offset[32];
    std::snprintf(offset, sizeof offset, "+0x%llx", static_cast<unsigned long long>(start));
    return std::make_pair(base + offset, std::make_pair(start + bias, end + bias));
}

}  // namespace jobsentry
