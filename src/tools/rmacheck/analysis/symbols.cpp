// libdwfl offline symbolisation (see symbols.h).
#include "tools/rmacheck/analysis/symbols.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

namespace rmacheck {

namespace {
const Dwfl_Callbacks kCallbacks = {
    dwfl_build_id_find_elf, dwfl_standard_find_debuginfo, dwfl_offline_section_address, nullptr};

// ET_EXEC files are reported at their link addresses; ET_DYN at their load base.
bool is_position_independent(const std::string& path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return true;
    unsigned char header[18] = {0};
    ssize_t n = pread(fd, header, sizeof header, 0);
    close(fd);
    return n == static_cast<ssize_t>(sizeof header) && (header[16] | header[17] << 8) == 3;
}

std::string basename_of(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}
}  // namespace

OfflineSymbols::OfflineSymbols(const std::vector<Module>& modules) : modules_(modules) {
    dwfl_ = dwfl_begin(&kCallbacks);
    if (!dwfl_) return;
    dwfl_report_begin(dwfl_);
    std::set<std::string> reported;
    for (const auto& m : modules_) {
        if (!reported.insert(m.path).second) continue;
        uint64_t base = is_position_independent(m.path) ? m.start - m.offset : 0;
        dwfl_report_elf(dwfl_, basename_of(m.path).c_str(), m.path.c_str(), -1, base, false);
    }
    dwfl_report_end(dwfl_, nullptr, nullptr);
}

OfflineSymbols::~OfflineSymbols() {
    if (dwfl_) dwfl_end(dwfl_);
}

std::string OfflineSymbols::where(uint64_t address, bool is_return_address) {
    uint64_t pc = is_return_address && address > 0 ? address - 1 : address;
    auto hit = cache_.find(pc);
    if (hit != cache_.end()) return hit->second;
    std::string text;
    Dwfl_Module* mod = dwfl_ ? dwfl_addrmodule(dwfl_, pc) : nullptr;
    if (mod) {
        Dwfl_Line* line = dwfl_module_getsrc(mod, pc);
        int lineno = 0;
        const char* file = line ? dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr) : nullptr;
        if (file && lineno > 0) {
            text = basename_of(file) + ":" + std::to_string(lineno);
        } else {
            Dwarf_Addr start = 0;
            const char* name = dwfl_module_info(mod, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
            char buf[64];
            std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(pc - start));
            text = std::string(name ? name : "?") + buf;
        }
    } else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(address));
        text = buf;
    }
    cache_[pc] = text;
    return text;
}

std::string OfflineSymbols::function(uint64_t address, bool is_return_address) {
    uint64_t pc = is_return_address && address > 0 ? address - 1 : address;
    Dwfl_Module* mod = dwfl_ ? dwfl_addrmodule(dwfl_, pc) : nullptr;
    const char* name = mod ? dwfl_module_addrname(mod, pc) : nullptr;
    return name ? name : "";
}

size_t OfflineSymbols::code(uint64_t pc, uint8_t* out, size_t n) {
    Dwfl_Module* mod = dwfl_ ? dwfl_addrmodule(dwfl_, pc) : nullptr;
    Dwarf_Addr bias = 0;
    Elf* elf = mod ? dwfl_module_getelf(mod, &bias) : nullptr;
    if (!elf) return 0;
    const uint64_t at = pc - bias;  // the address in the file's own layout
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr header;
        if (!gelf_getshdr(scn, &header) || header.sh_type != SHT_PROGBITS || !(header.sh_flags & SHF_EXECINSTR) ||
            at < header.sh_addr || at >= header.sh_addr + header.sh_size)
            continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        const uint64_t offset = at - header.sh_addr;
        if (!data || !data->d_buf || offset >= data->d_size) return 0;
        const size_t got = std::min<size_t>(n, data->d_size - offset);
        std::memcpy(out, static_cast<const uint8_t*>(data->d_buf) + offset, got);
        return got;
    }
    return 0;
}

}  // namespace rmacheck
