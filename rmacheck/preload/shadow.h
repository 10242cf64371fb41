// Precise mode's filter: one byte per 4 KiB page of the address space, non-zero
// where window memory or a pending origin buffer lies (a count of the ranges
// on that page). The hooks linked into the program (tsan_hooks.cpp) read it
// inline, so an access to any other page costs a load and a compare instead of
// a call into this module; an access to a marked page goes on to the exact
// range check (protect::interesting). The map is a NORESERVE reservation of
// 32 GiB of address space (47-bit user addresses), backed only where marked:
// reading an unmarked part reads the zero page.
#pragma once

#include <cstdint>

// What the program's hooks see (exported; tsan_hooks.cpp declares the same).
extern "C" {
struct JobsentryRmaFilter {
    // 0: not tracing (every access is ignored); 1: the page map decides; 2: no map could be
    // made, every access goes to the exact check.
    uint64_t mode;
    const uint8_t* pages;  // indexed by address >> 12, kFilterPages entries
};
extern JobsentryRmaFilter jobsentry_rma_filter;
}

namespace rmacheck::shadow {

constexpr unsigned kPageShift = 12;
constexpr uint64_t kFilterPages = uint64_t{1} << (47 - kPageShift);

void enable();  // precise tracing starts: the map (or mode 2 when it cannot be made)
void mark(uint64_t lo, uint64_t hi);    // a range of interest begins
void unmark(uint64_t lo, uint64_t hi);  // ... and ends

}  // namespace rmacheck::shadow
