// The --cpus value of `jobsentry noise` and of the noise probe (noise/cpu_list.h
// parse_cpu_list): an accepted list is sorted, without duplicates, and only
// holds PUs this process may run on.
#include <algorithm>

#include "tools/noise/cpu_list.h"
#include "fuzz_common.h"

FUZZ_TEXT_TARGET(text) {
    const std::vector<int> existing{0, 1, 2, 3, 4, 5, 6, 7}, allowed{0, 1, 2, 3, 6};
    const jobsentry::CpuListParse p = jobsentry::parse_cpu_list(text, existing, allowed);
    if (!p.error.empty()) {
        FUZZ_CHECK(p.cpus.empty());
        return;
    }
    FUZZ_CHECK(!p.cpus.empty() && std::is_sorted(p.cpus.begin(), p.cpus.end()));
    FUZZ_CHECK(std::adjacent_find(p.cpus.begin(), p.cpus.end()) == p.cpus.end());
    for (int cpu : p.cpus) FUZZ_CHECK(std::binary_search(allowed.begin(), allowed.end(), cpu));
    FUZZ_CHECK(jobsentry::parse_cpu_list(jobsentry::format_cpu_list(p.cpus), existing, allowed).cpus == p.cpus);
}
