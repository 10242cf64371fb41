// Symbol tables shared between processes (hang/sampler/binary_symbols.h): two
// Symbolizers of this process stand for two ranks mapping the same binaries.
#include "catch_compat.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <string>

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
