// See libgomp_swap.h.
#include "tools/rmacheck/openmp/libgomp_swap.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <iostream>
#include <set>
#include <utility>

#include "tools/mpiwrap/program_mpi.h"
#include "tools/rmacheck/openmp/elf_versions.h"

#ifndef JOBSENTRY_LIBOMP_PATH
#define JOBSENTRY_LIBOMP_PATH ""
#endif

namespace rmacheck::openmp {

namespace {
constexpr const char* kLibgomp = "libgomp.so.1";

bool needs_libgomp(const ElfVersions& e) {
    for (const auto& n : e.needed)
        if (n == kLibgomp) return true;
    return false;
}

// Where the loader would find a library the program needs: its RUNPATH/RPATH ($ORIGIN expanded),
// LD_LIBRARY_PATH, the usual system directories (not ld.so.cache's extra ones); "" when not found.
std::string find_library(const std::string& name, const std::string& program, const std::string& runpath) {
    std::string origin = program.substr(0, program.rfind('/') == std::string::npos ? 0 : program.rfind('/'));
    if (origin.empty()) origin = ".";
    const char* ld = std::getenv("LD_LIBRARY_PATH");
    std::string dirs = runpath + ":" + (ld ? ld : "") +
                       ":/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib";
    for (size_t start = 0; start <= dirs.size();) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(start, end - start);
        start = end + 1;
        if (dir.empty()) continue;
        if (dir.rfind("$ORIGIN", 0) == 0) dir = origin + dir.substr(7);
        std::string path = dir + "/" + name;
        if (access(path.c_str(), R_OK) == 0) return path;
    }
    return "";
}

// The libraries a file needs, all the way down, found as the loader would (each through the RUNPATH
// of the file that names it): breadth first, each once, at most kMaxLibraries. Debian's NWChem with
// OpenBLAS's OpenMP build on LD_LIBRARY_PATH needs libblas.so.3, which needs libopenblas.so.0, which
// needs libgomp.so.1: three links down.
constexpr size_t kMaxLibraries = 256;

// The first file of the command linked with libgomp.so.1, itself or through the shared libraries it
// needs (LAMMPS's lmp needs liblammps.so.0, which needs libgomp), and what it and those libraries
// need from libgomp.
bool find_libgomp_user(const std::vector<std::string>& command, std::string* file, ElfVersions* v) {
    for (size_t i = 0; i < command.size(); ++i) {
        std::string f = jobsentry::command_word_file(command[i], i == 0);
        if (f.empty()) continue;
        ElfVersions e = read_elf_versions(f, kLibgomp);
        bool uses = needs_libgomp(e);
        std::set<std::string> seen{f};
        std::deque<std::pair<std::string, ElfVersions>> todo{{f, e}};
        while (!todo.empty() && seen.size() < kMaxLibraries) {
            const auto [from, elf] = std::move(todo.front());
            todo.pop_front();
            for (const auto& lib : elf.needed) {
                if (lib == kLibgomp) continue;
                std::string path = find_library(lib, from, elf.runpath);
                if (path.empty() || !seen.insert(path).second) continue;
                ElfVersions l = read_elf_versions(path, kLibgomp);
                if (needs_libgomp(l)) {
                    uses = true;
                    e.needs.insert(l.needs.begin(), l.needs.end());
                    e.need_versions.insert(l.need_versions.begin(), l.need_versions.end());
                }
                todo.emplace_back(path, std::move(l));
            }
        }
        if (!uses) continue;
        *file = f, *v = std::move(e);
        return true;
    }
    return false;
}

// libomp's own entry point tells it from any other file (libgomp itself defines the GOMP_ ones).
bool is_libomp(const ElfVersions& e) {
    auto it = e.defines.lower_bound("__kmpc_fork_call@");
    return e.elf && it != e.defines.end() && it->rfind("__kmpc_fork_call@", 0) == 0;
}

std::string first_of(const std::vector<std::string>& names, size_t n) {
    std::string s;
    for (size_t i = 0; i < names.size() && i < n; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > n) s += " and " + std::to_string(names.size() - n) + " more";
    return s;
}
}  // namespace

std::vector<std::string> missing_from(const std::set<std::string>& needs, const std::set<std::string>& need_versions,
                                      const std::set<std::string>& defines, const std::set<std::string>& versions) {
    std::vector<std::string> out;
    for (const auto& v : need_versions)
        if (!versions.count(v)) out.push_back("version " + v);  // the loader would refuse to start the program
    for (const auto& n : needs)
        if (!defines.count(n)) out.push_back(n);
    return out;
}

LibgompSwap prepare_libgomp_swap(const std::vector<std::string>& command, const std::string& parent,
                                 const std::string& who) {
    LibgompSwap swap;
    std::string program;
    ElfVersions needs;
    if (!find_libgomp_user(command, &program, &needs)) return swap;  // not linked with libgomp: nothing changes
    const char* env = std::getenv("JOBSENTRY_LIBOMP");
    const std::string libomp = env && *env ? env : JOBSENTRY_LIBOMP_PATH;
    const ElfVersions offer = libomp.empty() ? ElfVersions{} : read_elf_versions(libomp, "");
    if (!is_libomp(offer)) {
        std::cerr << who << ": " << program << " runs GCC's libgomp (no OMPT), and LLVM libomp, which could take "
                  << "its place, was not found (" << (libomp.empty() ? "none found at build time" : libomp)
                  << "; JOBSENTRY_LIBOMP names it): the order of its threads is not checked\n";
        swap.environment.push_back({"JOBSENTRY_RMA_OPENMP", "absent " + libomp});
        return swap;
    }
    std::vector<std::string> missing = missing_from(needs.needs, needs.need_versions, offer.defines, offer.versions);
    if (!missing.empty()) {
        std::cerr << who << ": " << program << " needs from libgomp " << first_of(missing, 8)
                  << ", which LLVM libomp (" << libomp << ") does not provide: it runs GCC's libgomp (no OMPT), "
                  << "and the order of its threads is not checked\n";
        swap.environment.push_back({"JOBSENTRY_RMA_OPENMP", "missing " + first_of(missing, 8)});
        return swap;
    }
    // A fresh directory of our own (mkdtemp: 0700, never an existing path), so the link cannot be
    // redirected by anyone else.
    std::string tmpl = parent + "/openmp.XXXXXX";
    if (!mkdtemp(tmpl.data()) || symlink(libomp.c_str(), (tmpl + "/" + kLibgomp).c_str()) != 0) {
        std::cerr << who << ": cannot make the directory that puts LLVM libomp in libgomp's place under " << parent
                  << ": the order of the threads is not checked\n";
        rmdir(tmpl.c_str());
        swap.environment.push_back({"JOBSENTRY_RMA_OPENMP", "absent " + libomp});
        return swap;
    }
    swap.dir = tmpl;
    std::string path = tmpl;
    if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) path += std::string(":") + old;
    swap.environment.push_back({"LD_LIBRARY_PATH", path});
    swap.environment.push_back({"JOBSENTRY_RMA_OPENMP", "libomp " + libomp});
    std::cerr << who << ": " << program << " runs GCC's libgomp, which has no OMPT: its ranks run LLVM libomp ("
              << libomp << ") in its place (all " << needs.needs.size()
              << " GOMP_/omp_ symbols it needs are there), so OpenMP orders its threads\n";
    return swap;
}

void remove_libgomp_swap(const LibgompSwap& swap) {
    if (swap.dir.empty()) return;
    unlink((swap.dir + "/" + kLibgomp).c_str());
    rmdir(swap.dir.c_str());
}

}  // namespace rmacheck::openmp
