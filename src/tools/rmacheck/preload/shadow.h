// Precise mode's shadow map: one byte per 8-byte granule of the 47-bit user
// address space, non-zero where window memory or a pending origin buffer lies.
// A program compiled with jobsentry-mpicc carries clang's AddressSanitizer
// instrumentation, told to use a shadow of this scale at a dynamic base and no
// ASan runtime: every load and store reads its granule's byte inline (a shift,
// a load, a branch) and calls __asan_report_* (asan_hooks.cpp, in the program)
// only when it is non-zero; that call goes on to the exact range check
// (protect::interesting). Every marked byte is negative as a signed char, so
// ASan's partial-granule compare always passes: a marked granule always
// reports. The byte counts the ranges on the granule: 0x80 for one, +1 per
// further range, 0xff sticky (never wrong: the exact check follows).
// 8-byte granules, as ASan's own: an access aligned to 8 bytes or to its size
// is then one check of its own address (see asan_hooks.cpp for the others).
// The map is a NORESERVE reservation of 16 TiB of address space, backed only
// where marked; reading an unmarked part reads the zero page.
#pragma once

#include <cstdint>

extern "C" {
// The map's base, read by the program's instrumentation (ASan's dynamic shadow).
extern uintptr_t __asan_shadow_memory_dynamic_address;
// Reserves the map, once (called by the program's __asan_init, before any instrumented code runs).
void jobsentry_rma_shadow_init();
}

namespace rmacheck::shadow {

constexpr unsigned kGranuleShift = 3;  // jobsentry-mpicc passes -asan-mapping-scale=3 (ASan's own)
constexpr uint64_t kGranules = uint64_t{1} << (47 - kGranuleShift);

void enable();  // precise tracing starts: ranges are marked from now on
void mark(uint64_t lo, uint64_t hi);    // a range of interest begins
void unmark(uint64_t lo, uint64_t hi);  // ... and ends

}  // namespace rmacheck::shadow
