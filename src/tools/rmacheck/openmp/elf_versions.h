// The versioned dynamic symbols of an ELF file (libelf): what it needs from one
// library (undefined symbols whose version a DT_VERNEED entry of that library
// names) and what it defines, as "name@VERSION". The dynamic loader binds a
// versioned reference only to a definition of the same version, and refuses to
// start a program one of whose needed versions its library does not define.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace rmacheck::openmp {

struct ElfVersions {
    bool elf = false;                    // the file is a readable ELF object
    std::vector<std::string> needed;     // DT_NEEDED
    std::string runpath;                 // DT_RUNPATH, else DT_RPATH (':'-separated, $ORIGIN unexpanded)
    std::set<std::string> needs;         // "name@VERSION" required from `from`
    std::set<std::string> need_versions; // the versions required from `from`
    std::set<std::string> defines;       // "name@VERSION" defined (every version, default or not)
    std::set<std::string> versions;      // the version nodes defined
};

// `from`: the library whose needs are collected (e.g. "libgomp.so.1"); "" collects none.
ElfVersions read_elf_versions(const std::string& path, const std::string& from);

}  // namespace rmacheck::openmp
