#include "hang/model/own_wakeups.h"

namespace jobsentry {

void OwnWakeups::reading(int rank, uint64_t sleeps) {
    auto [it, first] = counts_.try_emplace(rank);
    Counts& c = it->second;
    if (first) c.first = sleeps;
    c.last = sleeps;
    c.looks_at_last = c.looks;
}

void OwnWakeups::looked(int rank) {
    auto it = counts_.find(rank);
    if (it != counts_.end()) ++it->second.looks;
}

bool OwnWakeups::woke_by_itself(int rank) const {
    auto it = counts_.find(rank);
    if (it == counts_.end()) return false;
    const Counts& c = it->second;
    return c.last > c.first && c.last - c.first > 2 * static_cast<uint64_t>(c.looks_at_last) + 1;
}

}  // namespace jobsentry
