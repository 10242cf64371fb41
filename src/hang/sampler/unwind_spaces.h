// libunwind address spaces for the sampled processes, with a register-rule cache large enough for
// a real code's PCs, recycled rather than destroyed.
//
// libunwind keeps, per address space, the register rules of the PCs it has unwound (UNW_CACHE_GLOBAL).
// Its default of 128 PCs is fewer than a real code's rank shows (a CP2K rank: ~250 distinct PCs in
// its first 150 samples), and it replaces in turn, so the outer frames present in every sample were
// evicted every ~17 samples: 6.5 misses a CP2K sample, each a table search and an FDE's CFA program
// read byte by byte (~580 reads). With kRuleCacheEntries: 0.5 a sample after the first few hundred.
// Memory: each space touches 80 KB at once (the cache's index) and up to 0.75 MB more as its rules
// fill (184 bytes a PC, mapped lazily): a CP2K rank's ~1,000 PCs take about 0.26 MB.
// Two quirks of libunwind (1.6) shape this class:
//   * unw_set_cache_size on a space whose cache was never used resets it to the default size, so
//     the size is set twice (only the second call takes effect);
//   * unw_destroy_addr_space frees the space but not a cache sized so (about 0.9 MB mapped), so a
//     process's spaces go back here when it is forgotten, flushed, for the next process: a job whose
//     processes come and go holds no more spaces than it had processes at once.
// Not thread-safe, as the StackWalker that owns it.
#pragma once

#include <libunwind.h>

#include <cstddef>
#include <vector>

namespace jobsentry {

class UnwindSpaces {
public:
    static constexpr size_t kRuleCacheEntries = 4096;

    UnwindSpaces() = default;
    ~UnwindSpaces();
    UnwindSpaces(const UnwindSpaces&) = delete;
    UnwindSpaces& operator=(const UnwindSpaces&) = delete;

    // A space reading through `accessors` (which must outlive this object) with an empty rule
    // cache of kRuleCacheEntries PCs; nullptr if libunwind could not make one.
    unw_addr_space_t take(unw_accessors_t* accessors);
    // Back for another process (accessors: as taken): its cached rules are flushed (they hold this
    // process's addresses). Every space taken must come back before this object is destroyed, which
    // destroys the spares.
    void give_back(unw_accessors_t* accessors, unw_addr_space_t space);

private:
    struct Spare {
        unw_accessors_t* accessors;
        unw_addr_space_t space;
    };
    std::vector<Spare> spares_;
};

}  // namespace jobsentry
