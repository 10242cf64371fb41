// See elf_versions.h.
#include "tools/rmacheck/openmp/elf_versions.h"

#include <gelf.h>
#include <libelf.h>

#include <map>

#include "base/elf_file.h"

namespace rmacheck::openmp {

namespace {

struct Sections {
    Elf_Scn *dynsym = nullptr, *versym = nullptr, *verneed = nullptr, *verdef = nullptr;
    size_t dynsym_strings = 0, verneed_strings = 0, verdef_strings = 0;
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

}  // namespace

ElfVersions read_elf_versions(const std::string& path, const std::string& from) {
    ElfVersions out;
    out.elf = jobsentry::with_elf_file(path, [&](Elf* elf) {
        Sections s = find_sections(elf);
        std::map<unsigned, std::string> need, def;
        read_version_tables(elf, s, from, &need, &def);
        for (const auto& [i, v] : need) out.need_versions.insert(v);
        for (const auto& [i, v] : def) out.versions.insert(v);
        read_symbols(elf, s, need, def, &out);
        jobsentry::ElfDynamic dynamic = jobsentry::read_elf_dynamic(elf);
        out.needed = std::move(dynamic.needed);
        out.runpath = std::move(dynamic.runpath);
    });
    return out;
}

}  // namespace rmacheck::openmp
