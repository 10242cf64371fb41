// The machine's processing units as hwloc sees them: which exist, which this
// process may run on, and pinning the calling thread to one of them.
#pragma once

#include <string>
#include <vector>

struct hwloc_topology;

namespace jobsentry {

class PuTopology {
public:
    PuTopology();  // loads the topology; error() says when that failed
    ~PuTopology();
    PuTopology(const PuTopology&) = delete;
    PuTopology& operator=(const PuTopology&) = delete;

    const std::string& error() const { return error_; }
    std::vector<int> existing() const;  // OS indexes of every PU
    // PUs the calling thread may be bound to: its current binding (sched
    // affinity, cgroup cpuset) within the topology's allowed set.
    std::vector<int> allowed() const;
    // Binds the calling thread to the single PU `cpu` (HWLOC_CPUBIND_THREAD
    // | HWLOC_CPUBIND_STRICT); "" on success, otherwise why not.
    std::string pin_this_thread(int cpu) const;

private:
    hwloc_topology* topology_ = nullptr;
    std::string error_;
};

}  // namespace jobsentry
