#include "hang/model/unwind_filter.h"

namespace jobsentry {

bool UnwindFilter::accept(int rank, bool complete, uint64_t chain) {
    if (complete) {
        reach_entry_.insert(rank);
        last_short_chain_.erase(rank);
        return true;
    }
    if (!reach_entry_.count(rank)) return true;
    const auto last = last_short_chain_.find(rank);
    const bool repeated = last != last_short_chain_.end() && last->second == chain;
    last_short_chain_[rank] = chain;
    return repeated;
}

}  // namespace jobsentry
