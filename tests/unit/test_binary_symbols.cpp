// Symbol tables shared between processes (hang/sampler/binary_symbols.h): two
// Symbolizers of this process stand for two ranks mapping the same binaries.
#include "catch_compat.hpp"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hang/sampler/binary_symbols.h"
#include "hang/sampler/symbolizer.h"

using namespace jobsentry;

extern "C" __attribute__((noinline, used)) int jobsentry_symbol_marker(int x) { return x * 3 + 1; }

TEST_CASE("two processes' views of one binary read its symbol table once") {
    BinaryCache binaries;
    Symbolizer first(getpid(), &binaries), second(getpid(), &binaries);
    const auto marker = reinterpret_cast<uint64_t>(&jobsentry_symbol_marker);
    const auto in_libc = reinterpret_cast<uint64_t>(dlsym(RTLD_DEFAULT, "getpid"));
    REQUIRE(in_libc != 0);

    const Symbol a = first.lookup(marker);
    REQUIRE(a.function);
    CHECK(std::string(a.function) == "jobsentry_symbol_marker");
    CHECK(binaries.files_opened() == 1);
    const Symbol b = second.lookup(marker + 1);
    REQUIRE(b.function);
    CHECK(std::string(b.function) == "jobsentry_symbol_marker");
    CHECK(binaries.files_opened() == 1);  // the second "rank" found the test binary read already

    const Symbol c = first.lookup(in_libc);
    second.lookup(in_libc);
    CHECK(binaries.files_opened() == 2);  // libc, once

    REQUIRE(c.function);
    CHECK_THAT(std::string(c.function), Catch::Contains("getpid"));
    CHECK_THAT(std::string(c.module), Catch::Contains("libc"));

    // The shared tables name frames as the process's own would. (The process's own
    // libdwfl view fails to name libc's getpid in about one run of three, by where
    // ASLR put things; the shared copy, at the file's addresses, has not.)
    Symbolizer alone(getpid());
    const Symbol d = alone.lookup(in_libc);
    if (d.function) CHECK(std::string(c.function) == std::string(d.function));
    CHECK(std::string(alone.lookup(marker).function) == "jobsentry_symbol_marker");
}

TEST_CASE("PCs looked up again are named as the first time, whatever shares their slot of the recent table") {
    // The recent table (512 slots) in front of the map: a repeated PC comes from its slot; PCs that
    // collide replace each other. 4000 distinct PCs across this binary's code, and libc's, collide
    // often; each must be named as its first lookup named it. (Not against a second Symbolizer of
    // this process: the shared copies' own mappings of libc, in this process's maps, can confuse a
    // second view of it; a supervisor's ranks are other processes.)
    BinaryCache binaries;
    Symbolizer cached(getpid(), &binaries);
    std::vector<uint64_t> pcs;
    const auto marker = reinterpret_cast<uint64_t>(&jobsentry_symbol_marker);
    for (const char* name : {"getpid", "strlen", "memcpy", "malloc", "free", "printf", "qsort", "fopen"})
        if (void* f = dlsym(RTLD_DEFAULT, name)) pcs.push_back(reinterpret_cast<uint64_t>(f) + 1);
    for (uint64_t i = 0; i < 4000; ++i) pcs.push_back(marker + 16 * i);  // this binary's code, about 64 KB of it
    pcs.push_back(8);                                                     // in no module
    std::vector<Symbol> first;
    for (uint64_t pc : pcs) first.push_back(cached.lookup(pc));
    size_t named = 0;
    for (const Symbol& f : first) named += f.function != nullptr;
    CHECK(named > 3000);
    auto same = [](const char* a, const char* b) { return (!a && !b) || (a && b && std::string(a) == b); };
    for (int round = 0; round < 3; ++round)
        for (size_t i = round; i < pcs.size(); i += 7) {  // another order each round: other collisions
            const Symbol again = cached.lookup(pcs[i]);
            INFO("pc " << std::hex << pcs[i] << " round " << round);
            CHECK(same(again.function, first[i].function));
            CHECK(same(again.module, first[i].module));
            CHECK(again.mpi_library == first[i].mpi_library);
        }
    CHECK(std::string(cached.lookup(marker + 2).function) == "jobsentry_symbol_marker");
    Symbolizer fresh(getpid(), &binaries);
    CHECK(std::string(fresh.lookup(marker + 2).function) == "jobsentry_symbol_marker");
    CHECK_FALSE(cached.lookup(8).module);  // not a module, and never remembered as one
}

int jobsentry_writable_global = 7;
// A pointer the loader relocates: RELRO (.data.rel.ro), mapped read-only after start, unlike the file.
extern "C" __attribute__((used)) int* const jobsentry_relro_pointer = &jobsentry_writable_global;

TEST_CASE("the unwinder's reads of code and unwind tables come from the file, never of what the loader changed") {
    BinaryCache binaries;
    Symbolizer symbols(getpid(), &binaries);
    unsigned char bytes[16];

    // Code: the file's bytes are the process's.
    const auto marker = reinterpret_cast<uint64_t>(&jobsentry_symbol_marker);
    REQUIRE(symbols.read_unchanged(marker, bytes, sizeof bytes));
    CHECK(std::memcmp(bytes, reinterpret_cast<const void*>(marker), sizeof bytes) == 0);

    // The unwind table's header (PT_GNU_EH_FRAME) of this program, as libunwind reads it.
    uint64_t eh_frame_hdr = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
            if (info->dlpi_name && info->dlpi_name[0]) return 0;  // the program itself has no name here
            for (int i = 0; i < info->dlpi_phnum; ++i)
                if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
                    *static_cast<uint64_t*>(out) = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            return 1;
        },
        &eh_frame_hdr);
    REQUIRE(eh_frame_hdr != 0);
    REQUIRE(symbols.read_unchanged(eh_frame_hdr, bytes, 8));
    CHECK(std::memcmp(bytes, reinterpret_cast<const void*>(eh_frame_hdr), 8) == 0);

    // The section served, at the process's addresses: the unwinder's next reads from it are copies
    // of these bytes (stack_snapshot.cpp), so they must be the process's own, end to end.
    BinarySymbols::Span span;
    REQUIRE(symbols.read_unchanged(eh_frame_hdr, bytes, 8, &span));
    CHECK(span.covers(eh_frame_hdr, 8));
    CHECK_FALSE(span.covers(span.hi - 4, 8));  // a read off its end is not covered
    CHECK_FALSE(span.covers(span.lo - 1, 1));
    CHECK(std::memcmp(span.bytes, reinterpret_cast<const void*>(span.lo), span.hi - span.lo) == 0);
    REQUIRE(symbols.read_unchanged(marker, bytes, 8, &span));
    CHECK(span.covers(marker, 8));
    CHECK(std::memcmp(span.bytes, reinterpret_cast<const void*>(span.lo), span.hi - span.lo) == 0);

    // A shared library's code, at its own load bias.
    const auto in_libc = reinterpret_cast<uint64_t>(dlsym(RTLD_DEFAULT, "getpid"));
    REQUIRE(symbols.read_unchanged(in_libc, bytes, sizeof bytes));
    CHECK(std::memcmp(bytes, reinterpret_cast<const void*>(in_libc), sizeof bytes) == 0);

    // Writable data, RELRO (relocated by the loader: in a position-independent program, as the
    // tests are built) and the heap are read from the process.
    CHECK_FALSE(symbols.read_unchanged(reinterpret_cast<uint64_t>(&jobsentry_writable_global), bytes, 4));
#if defined(__PIE__)
    CHECK_FALSE(symbols.read_unchanged(reinterpret_cast<uint64_t>(&jobsentry_relro_pointer), bytes, 8));
#endif
    auto heap = std::make_unique<int>(5);
    CHECK_FALSE(symbols.read_unchanged(reinterpret_cast<uint64_t>(heap.get()), bytes, 4));

    // A read that runs off the end of a section is not served in part.
    CHECK_FALSE(symbols.read_unchanged(marker, bytes, 1 << 30));

    // Without the shared copies, nothing is served.
    Symbolizer alone(getpid());
    CHECK_FALSE(alone.read_unchanged(marker, bytes, 8));
}

TEST_CASE("a module whose file differs from what the process maps is read from the process") {
    // A child patches its own copy of a function (as a file replaced since, or one seen through
    // another mount namespace, would differ): its first word served is checked and found wrong.
    const auto marker = reinterpret_cast<uint64_t>(&jobsentry_symbol_marker);
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const long page = sysconf(_SC_PAGESIZE);
        void* start = reinterpret_cast<void*>(marker & ~static_cast<uint64_t>(page - 1));
        char ok = 0;
        if (mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
            reinterpret_cast<volatile unsigned char*>(marker)[0] ^= 0xff;
            ok = 1;
        }
        (void)!write(ready[1], &ok, 1);
        pause();
        _exit(0);
    }
    char ok = 0;
    REQUIRE(read(ready[0], &ok, 1) == 1);
    REQUIRE(ok == 1);

    BinaryCache binaries;
    Symbolizer patched(child, &binaries);
    unsigned char bytes[8];
    CHECK_FALSE(patched.read_unchanged(marker, bytes, sizeof bytes));
    CHECK_FALSE(patched.read_unchanged(marker + 64, bytes, sizeof bytes));  // nothing more of that module
    // The same file in this process, unpatched, is served.
    Symbolizer self(getpid(), &binaries);
    CHECK(self.read_unchanged(marker + 64, bytes, sizeof bytes));

    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    close(ready[0]);
    close(ready[1]);
}

TEST_CASE("functions named once are found again by every rank's lookup, at the file's addresses") {
    auto file = BinarySymbols::open("/proc/self/exe");
    REQUIRE(file);
    CHECK(file->function_at(0x1000) == nullptr);
    const char* symbol_name = "from_the_symbol_table";
    CHECK(file->remember(0x1000, 0x1100, symbol_name) == symbol_name);
    const BinarySymbols::Function* f = file->function_at(0x10ff);
    REQUIRE(f);
    CHECK(f->name == symbol_name);
    CHECK(f->lo == 0x1000);
    CHECK(file->function_at(0x1100) == nullptr);  // [lo, hi)
    CHECK(file->function_at(0xfff) == nullptr);
    // A name made for stripped code is kept by the file, once per function, whoever asks.
    const char* kept = file->remember_kept(0x2000, 0x2400, "exe+0x2000");
    REQUIRE(kept);
    CHECK(std::string(kept) == "exe+0x2000");
    CHECK(file->remember_kept(0x2000, 0x2400, "exe+0x2000") == kept);
    CHECK(file->function_at(0x23ff)->name == kept);
}
