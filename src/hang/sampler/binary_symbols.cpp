#include "hang/sampler/binary_symbols.h"

#include <sys/stat.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <cstdio>
#include <cstring>
#include <iterator>

namespace jobsentry {

int dwfl_no_debuginfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*, GElf_Word, char**) {
    return -1;
}

namespace {

const Dwfl_Callbacks kOfflineCallbacks = {
    dwfl_build_id_find_elf,
    dwfl_no_debuginfo,
    nullptr,
    nullptr,
};

// "b:<build id>", or "f:dev:inode:mtime:size" of the file; "" when neither is known.
std::string file_key(Dwfl_Module* module, const char* path) {
    const unsigned char* bits = nullptr;
    GElf_Addr vaddr = 0;
    const int length = dwfl_module_build_id(module, &bits, &vaddr);
    std::string key;
    if (length > 0) {
        key = "b:";
        char hex[3];
        for (int i = 0; i < length; ++i) {
            std::snprintf(hex, sizeof hex, "%02x", bits[i]);
            key += hex;
        }
        return key;
    }
    struct stat st {};
    if (!path || stat(path, &st) != 0) return {};
    return "f:" + std::to_string(st.st_dev) + ':' + std::to_string(st.st_ino) + ':' +
           std::to_string(st.st_mtim.tv_sec) + '.' + std::to_string(st.st_mtim.tv_nsec) + ':' +
           std::to_string(st.st_size);
}

}  // namespace

std::unique_ptr<BinarySymbols> BinarySymbols::open(const std::string& path) {
    std::unique_ptr<BinarySymbols> out(new BinarySymbols);
    out->dwfl_ = dwfl_begin(&kOfflineCallbacks);
    if (!out->dwfl_) return nullptr;
    dwfl_report_begin(out->dwfl_);
    // Base 0 plus p_vaddr: the module's addresses are the file's own.
    out->module_ = dwfl_report_elf(out->dwfl_, path.c_str(), path.c_str(), -1, 0, true);
    dwfl_report_end(out->dwfl_, nullptr, nullptr);
    if (!out->module_) return nullptr;
    return out;
}

BinarySymbols::~BinarySymbols() {
    if (dwfl_) dwfl_end(dwfl_);
}

void BinarySymbols::index_sections() {
    indexed_ = true;
    Dwarf_Addr bias = 0;
    Elf* elf = dwfl_module_getelf(module_, &bias);
    if (!elf) return;
    // A file with text relocations has read-only segments patched by the loader (code, and
    // .eh_frame's absolute pointers too): nothing of it is served.
    bool text_relocated = false;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
        GElf_Shdr header;
        if (!gelf_getshdr(scn, &header) || header.sh_type != SHT_DYNAMIC) continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        for (size_t i = 0; data && header.sh_entsize && i < header.sh_size / header.sh_entsize; ++i) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, static_cast<int>(i), &dyn)) break;
            if (dyn.d_tag == DT_TEXTREL || (dyn.d_tag == DT_FLAGS && (dyn.d_un.d_val & DF_TEXTREL)))
                text_relocated = true;
        }
    }
    if (text_relocated) return;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
        GElf_Shdr header;
        if (!gelf_getshdr(scn, &header) || header.sh_type == SHT_NOBITS || !(header.sh_flags & SHF_ALLOC) ||
            (header.sh_flags & SHF_WRITE) || header.sh_size == 0)
            continue;
        sections_.push_back({header.sh_addr + bias, header.sh_addr + bias + header.sh_size, scn});
    }
}

bool BinarySymbols::read_unchanged(uint64_t vaddr, void* into, size_t bytes, Span* span) {
    if (!indexed_) index_sections();
    auto covers = [&](const Section& s) { return vaddr >= s.lo && vaddr < s.hi && bytes <= s.hi - vaddr; };
    if (last_ >= sections_.size() || !covers(sections_[last_])) {
        last_ = sections_.size();
        for (size_t i = 0; i < sections_.size(); ++i)
            if (covers(sections_[i])) last_ = i;
        if (last_ == sections_.size()) return false;
    }
    Section& section = sections_[last_];
    if (!section.bytes) {
        Elf_Data* data = elf_rawdata(static_cast<Elf_Scn*>(section.scn), nullptr);
        if (!data || !data->d_buf || data->d_size < section.hi - section.lo) {
            section.hi = section.lo;  // unreadable: never asked again
            return false;
        }
        section.bytes = static_cast<const unsigned char*>(data->d_buf);
    }
    std::memcpy(into, section.bytes + (vaddr - section.lo), bytes);
    if (span) *span = {section.lo, section.hi, section.bytes};
    return true;
}

const BinarySymbols::Function* BinarySymbols::function_at(uint64_t vaddr) const {
    auto after = functions_.upper_bound(vaddr);
    if (after == functions_.begin()) return nullptr;
    const Function& f = std::prev(after)->second;
    return vaddr < f.hi ? &f : nullptr;
}

const char* BinarySymbols::remember(uint64_t lo, uint64_t hi, const char* name) {
    if (functions_.size() < kMaxFunctions) functions_.emplace(lo, Function{lo, hi, name});
    return name;
}

const char* BinarySymbols::remember_kept(uint64_t lo, uint64_t hi, const std::string& kept) {
    if (const Function* f = function_at(lo); f && f->lo == lo) return f->name;
    if (functions_.size() >= kMaxFunctions) return nullptr;
    kept_names_.push_back(kept);
    return remember(lo, hi, kept_names_.back().c_str());
}

std::shared_ptr<BinarySymbols> BinaryCache::get(Dwfl_Module* process_module, uint64_t* bias) {
    Dwarf_Addr process_bias = 0;
    // Opens the process's copy of the file (its headers, not its tables): the bias and the build id.
    if (!dwfl_module_getelf(process_module, &process_bias)) return nullptr;
    const char* path = nullptr;
    dwfl_module_info(process_module, nullptr, nullptr, nullptr, nullptr, nullptr, &path, nullptr);
    if (!path) return nullptr;  // mapped from memory (the vDSO): nothing to share
    const std::string key = file_key(process_module, path);
    if (key.empty()) return nullptr;
    *bias = process_bias;
    auto found = by_key_.find(key);
    if (found != by_key_.end()) return found->second;  // nullptr for a file that could not be read: not retried
    std::shared_ptr<BinarySymbols> symbols = BinarySymbols::open(path);
    if (symbols) ++opened_;
    if (order_.size() >= kMaxBinaries) {  // users keep theirs alive; the index forgets the oldest
        by_key_.erase(order_.front());
        order_.pop_front();
    }
    by_key_[key] = symbols;
    order_.push_back(key);
    return symbols;
}

}  // namespace jobsentry
