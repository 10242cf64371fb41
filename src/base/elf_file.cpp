#include "base/elf_file.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>

namespace jobsentry {

bool with_elf_file(const std::string& path, const std::function<void(Elf*)>& read) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    bool ok = false;
    char magic[SELFMAG];
    if (pread(fd, magic, SELFMAG, 0) == SELFMAG && std::memcmp(magic, ELFMAG, SELFMAG) == 0 &&
        elf_version(EV_CURRENT) != EV_NONE) {
        if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
            read(elf);
            ok = true;
            elf_end(elf);
        }
    }
    close(fd);
    return ok;
}

ElfDynamic read_elf_dynamic(Elf* elf) {
    ElfDynamic out;
    Elf_Scn* scn = nullptr;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC || shdr.sh_entsize == 0) continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize; ++i) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, static_cast<int>(i), &dyn) || dyn.d_tag == DT_NULL) break;
            const char* text = nullptr;
            if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH)
                text = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
            if (!text) continue;
            if (dyn.d_tag == DT_NEEDED) out.needed.emplace_back(text);
            else if (dyn.d_tag == DT_RUNPATH || out.runpath.empty()) out.runpath = text;
        }
    }
    return out;
}

}  // namespace jobsentry
