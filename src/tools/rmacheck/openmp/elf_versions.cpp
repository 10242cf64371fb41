// See elf_versions.h.
#include "tools/rmacheck/openmp/elf_versions.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>
#include <map>

namespace rmacheck::openmp {

namespace {

struct Sections {
    Elf_Scn *dynsym = nullptr, *versym = nullptr, *verneed = nullptr, *verdef = nullptr, *dynamic = nullptr;
    size_t dynsym_strings = 0, verneed_strings = 0, verdef_strings = 0, dynamic_strings = 0;
};

Sections find_sections(Elf* elf) {
    Sections s;
    Elf_Scn* scn = nullptr;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr h;
        if (!gelf_getshdr(scn, &h)) continue;
        switch (h.sh_type) {
        case SHT_DYNSYM: s.dynsym = scn, s.dynsym_strings = h.sh_link; break;
        case SHT_GNU_versym: s.versym = scn; break;
        case SHT_GNU_verneed: s.verneed = scn, s.verneed_strings = h.sh_link; break;
        case SHT_GNU_verdef: s.verdef = scn, s.verdef_strings = h.sh_link; break;
        case SHT_DYNAMIC: s.dynamic = scn, s.dynamic_strings = h.sh_link; break;
        default: break;
        }
    }
    return s;
}

// Version index -> name, for the versions needed from `from` and for those defined.
void read_version_tables(Elf* elf, const Sections& s, const std::string& from, std::map<unsigned, std::string>* need,
                         std::map<unsigned, std::string>* def) {
    if (Elf_Data* d = s.verneed ? elf_getdata(s.verneed, nullptr) : nullptr) {
        size_t off = 0;
        GElf_Verneed vn;
        while (gelf_getverneed(d, static_cast<int>(off), &vn)) {
            const char* file = elf_strptr(elf, s.verneed_strings, vn.vn_file);
            size_t aux = off + vn.vn_aux;
            GElf_Vernaux va;
            for (unsigned i = 0; i < vn.vn_cnt && gelf_getvernaux(d, static_cast<int>(aux), &va); ++i) {
                const char* name = elf_strptr(elf, s.verneed_strings, va.vna_name);
                if (file && name && !from.empty() && from == file) (*need)[va.vna_other] = name;
                aux += va.vna_next;
            }
            if (!vn.vn_next) break;
            off += vn.vn_next;
        }
    }
    if (Elf_Data* d = s.verdef ? elf_getdata(s.verdef, nullptr) : nullptr) {
        size_t off = 0;
        GElf_Verdef vd;
        while (gelf_getverdef(d, static_cast<int>(off), &vd)) {
            GElf_Verdaux va;
            if (!(vd.vd_flags & VER_FLG_BASE) && gelf_getverdaux(d, static_cast<int>(off + vd.vd_aux), &va))
                if (const char* name = elf_strptr(elf, s.verdef_strings, va.vda_name)) (*def)[vd.vd_ndx] = name;
            if (!vd.vd_next) break;
            off += vd.vd_next;
        }
    }
}

void read_symbols(Elf* elf, const Sections& s, const std::map<unsigned, std::string>& need,
                  const std::map<unsigned, std::string>& def, ElfVersions* out) {
    Elf_Data* syms = s.dynsym ? elf_getdata(s.dynsym, nullptr) : nullptr;
    Elf_Data* vers = s.versym ? elf_getdata(s.versym, nullptr) : nullptr;
    if (!syms || !vers) return;
    GElf_Sym sym;
    for (int i = 1; gelf_getsym(syms, i, &sym); ++i) {
        GElf_Versym v;
        if (!gelf_getversym(vers, i, &v)) break;
        const char* name = elf_strptr(elf, s.dynsym_strings, sym.st_name);
        if (!name || !*name) continue;
        const unsigned index = v & 0x7fff;
        if (sym.st_shndx == SHN_UNDEF) {
            if (auto it = need.find(index); it != need.end()) out->needs.insert(std::string(name) + "@" + it->second);
        } else if (auto it = def.find(index); it != def.end()) {
            out->defines.insert(std::string(name) + "@" + it->second);
        }
    }
}

void read_needed(Elf* elf, const Sections& s, ElfVersions* out) {
    Elf_Data* d = s.dynamic ? elf_getdata(s.dynamic, nullptr) : nullptr;
    GElf_Dyn dyn;
    for (int i = 0; d && gelf_getdyn(d, i, &dyn) && dyn.d_tag != DT_NULL; ++i)
        if (const char* str = elf_strptr(elf, s.dynamic_strings, dyn.d_un.d_val)) {
            if (dyn.d_tag == DT_NEEDED) out->needed.emplace_back(str);
            if (dyn.d_tag == DT_RUNPATH || (dyn.d_tag == DT_RPATH && out->runpath.empty())) out->runpath = str;
        }
}

}  // namespace

ElfVersions read_elf_versions(const std::string& path, const std::string& from) {
    ElfVersions out;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return out;
    // Only ELF files are handed to libelf (a word of a command may name a big data file).
    char magic[SELFMAG];
    if (pread(fd, magic, SELFMAG, 0) == SELFMAG && std::memcmp(magic, ELFMAG, SELFMAG) == 0 &&
        elf_version(EV_CURRENT) != EV_NONE) {
        if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
            out.elf = true;
            Sections s = find_sections(elf);
            std::map<unsigned, std::string> need, def;
            read_version_tables(elf, s, from, &need, &def);
            for (const auto& [i, v] : need) out.need_versions.insert(v);
            for (const auto& [i, v] : def) out.versions.insert(v);
            read_symbols(elf, s, need, def, &out);
            read_needed(elf, s, &out);
            elf_end(elf);
        }
    }
    close(fd);
    return out;
}

}  // namespace rmacheck::openmp
