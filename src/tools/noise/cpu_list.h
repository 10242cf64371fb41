// The --cpus value: "all" or a list like "0,2-5", checked against the PUs the
// machine has and the ones this process may run on. Pure (the sets come from
// hwloc in probe.cpp), so every rule is unit-tested.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

struct CpuListParse {
    std::vector<int> cpus;  // sorted, no duplicates
    std::string error;      // non-empty: what was wrong and what is accepted
};

// existing: OS indexes of the machine's PUs; allowed: those this process may
// be bound to. "all" means every allowed PU.
CpuListParse parse_cpu_list(const std::string& text, const std::vector<int>& existing,
                            const std::vector<int>& allowed);

// {0,1,2,3,5} -> "0-3,5"
std::string format_cpu_list(const std::vector<int>& cpus);

}  // namespace jobsentry
