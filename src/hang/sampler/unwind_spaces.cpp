#include "hang/sampler/unwind_spaces.h"

#include <algorithm>

namespace jobsentry {

unw_addr_space_t UnwindSpaces::take(unw_accessors_t* accessors) {
    auto spare = std::find_if(spares_.begin(), spares_.end(), [&](const Spare& s) { return s.accessors == accessors; });
    if (spare != spares_.end()) {
        unw_addr_space_t space = spare->space;
        spares_.erase(spare);
        return space;
    }
    unw_addr_space_t space = unw_create_addr_space(accessors, 0);
    if (!space) return nullptr;
    unw_set_caching_policy(space, UNW_CACHE_GLOBAL);
    for (int i = 0; i < 2; ++i) unw_set_cache_size(space, kRuleCacheEntries, 0);  // twice: see the header
    return space;
}

void UnwindSpaces::give_back(unw_accessors_t* accessors, unw_addr_space_t space) {
    unw_flush_cache(space, 0, 0);  // emptied at its next use (libunwind maps it anew, at the size set)
    spares_.push_back({accessors, space});
}

UnwindSpaces::~UnwindSpaces() {
    // A cache of 2 entries first: that sizing unmaps the large one, which destroying would leave mapped.
    for (const Spare& spare : spares_) {
        unw_set_cache_size(spare.space, 2, 0);
        unw_destroy_addr_space(spare.space);
    }
}

}  // namespace jobsentry
