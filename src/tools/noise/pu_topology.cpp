#include "tools/noise/pu_topology.h"

#include <hwloc.h>

#include <cerrno>
#include <cstring>

namespace jobsentry {

namespace {

std::vector<int> indexes(hwloc_const_bitmap_t set) {
    std::vector<int> out;
    unsigned i;
    hwloc_bitmap_foreach_begin(i, set) out.push_back(static_cast<int>(i));
    hwloc_bitmap_foreach_end();
    return out;
}

}  // namespace

PuTopology::PuTopology() {
    if (hwloc_topology_init(&topology_) != 0 || hwloc_topology_load(topology_) != 0) {
        error_ = std::string("hwloc cannot load the topology: ") + std::strerror(errno);
        if (topology_) hwloc_topology_destroy(topology_);
        topology_ = nullptr;
    }
}

PuTopology::~PuTopology() {
    if (topology_) hwloc_topology_destroy(topology_);
}

std::vector<int> PuTopology::existing() const {
    if (!topology_) return {};
    return indexes(hwloc_topology_get_complete_cpuset(topology_));
}

std::vector<int> PuTopology::allowed() const {
    if (!topology_) return {};
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    std::vector<int> out;
    if (hwloc_get_cpubind(topology_, bound, HWLOC_CPUBIND_THREAD) == 0) {
        hwloc_bitmap_and(bound, bound, hwloc_topology_get_allowed_cpuset(topology_));
        out = indexes(bound);
    }
    hwloc_bitmap_free(bound);
    return out;
}

std::string PuTopology::pin_this_thread(int cpu) const {
    if (!topology_) return error_;
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topology_, static_cast<unsigned>(cpu));
    if (!pu) return "PU " + std::to_string(cpu) + " is not in hwloc's topology";
    hwloc_bitmap_t set = hwloc_bitmap_dup(pu->cpuset);
    hwloc_bitmap_singlify(set);  // one PU, even if the object's set were wider
    int rc = hwloc_set_cpubind(topology_, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
    int err = errno;
    hwloc_bitmap_free(set);
    if (rc != 0) return "cannot pin to PU " + std::to_string(cpu) + ": " + std::strerror(err);
    return {};
}

}  // namespace jobsentry
