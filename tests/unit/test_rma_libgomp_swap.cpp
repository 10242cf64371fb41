// Mode 1's check before running LLVM libomp in libgomp's place (rmacheck/openmp/): what the
// program needs that the replacement lacks, and the versioned symbols read from real files.
#include "catch_compat.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "tools/rmacheck/openmp/elf_versions.h"
#include "tools/rmacheck/openmp/libgomp_swap.h"

using rmacheck::openmp::missing_from;
using rmacheck::openmp::read_elf_versions;

TEST_CASE("missing_from names needed symbols and version nodes the replacement lacks") {
    const std::set<std::string> defines{"GOMP_parallel@GOMP_4.0", "GOMP_barrier@GOMP_1.0", "omp_alloc@VERSION"};
    const std::set<std::string> versions{"GOMP_1.0", "GOMP_4.0", "OMP_1.0", "VERSION"};
    CHECK(missing_from({"GOMP_parallel@GOMP_4.0", "GOMP_barrier@GOMP_1.0"}, {"GOMP_1.0", "GOMP_4.0"}, defines,
                       versions)
              .empty());
    // The same name under another version does not bind: the loader matches name and version.
    CHECK(missing_from({"omp_alloc@OMP_5.0.1", "GOMP_barrier@GOMP_1.0"}, {"OMP_5.0.1", "GOMP_1.0"}, defines,
                       versions) == std::vector<std::string>{"version OMP_5.0.1", "omp_alloc@OMP_5.0.1"});
    CHECK(missing_from({"GOMP_scope_start@GOMP_5.1"}, {"GOMP_5.1"}, defines, versions) ==
          std::vector<std::string>{"version GOMP_5.1", "GOMP_scope_start@GOMP_5.1"});
}

TEST_CASE("read_elf_versions reads libomp's GOMP_ definitions and a GCC program's needs from libgomp") {
    const char* libomp = "/usr/lib/x86_64-linux-gnu/libomp.so.5";
    FILE* f = std::fopen(libomp, "r");
    if (!f) {
        WARN("libomp.so.5 is not installed");
        return;
    }
    std::fclose(f);
    auto offer = read_elf_versions(libomp, "");
    REQUIRE(offer.elf);
    CHECK(offer.defines.count("GOMP_parallel@GOMP_4.0") == 1);
    CHECK(offer.defines.count("omp_get_thread_num@OMP_1.0") == 1);
    CHECK(offer.versions.count("GOMP_1.0") == 1);
    CHECK(offer.versions.count("OMP_5.0.1") == 0);  // libomp 14: omp_alloc only under its own VERSION
    CHECK(offer.defines.count("omp_alloc@OMP_5.0.1") == 0);

    // A GCC -fopenmp program, built here.
    char tmpl[] = "/tmp/jobsentry-gomp-test.XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    const std::string dir = tmpl;
    const std::string src = dir + "/jobsentry-gomp-test.c", exe = dir + "/jobsentry-gomp-test";
    FILE* out = std::fopen(src.c_str(), "w");
    REQUIRE(out);
    std::fputs("#include <omp.h>\nint main(void) {\n int n = 0;\n#pragma omp parallel\n { \n#pragma omp barrier\n"
               "#pragma omp critical\n n += omp_get_thread_num(); }\n return n < 0; }\n",
               out);
    std::fclose(out);
    if (std::system(("gcc -fopenmp -o " + exe + " " + src + " 2>/dev/null").c_str()) != 0) {
        WARN("gcc -fopenmp is not available");
        return;
    }
    auto needs = read_elf_versions(exe, "libgomp.so.1");
    CHECK(needs.needs == std::set<std::string>{"GOMP_parallel@GOMP_4.0", "GOMP_barrier@GOMP_1.0",
                                               "GOMP_critical_start@GOMP_1.0", "GOMP_critical_end@GOMP_1.0",
                                               "omp_get_thread_num@OMP_1.0"});
    CHECK(needs.need_versions == std::set<std::string>{"GOMP_1.0", "GOMP_4.0", "OMP_1.0"});
    CHECK(missing_from(needs.needs, needs.need_versions, offer.defines, offer.versions).empty());
    std::remove(src.c_str());
    std::remove(exe.c_str());
    rmdir(dir.c_str());
}
