// GCC's sections, seen from the inside: a program built with gcc -fopenmp asks the runtime which
// section to run next (GOMP_sections_start / GOMP_sections2_start, then GOMP_sections_next, each
// returning a section's number from 1, or 0 when none is left). LLVM libomp, run in libgomp's place
// (rmacheck/openmp/), answers them but reports the construct through OMPT as one piece of work, with
// no event per section (its ompt_callback_dispatch is "never" in LLVM 14). These wrappers record each
// answer on the calling thread (trace OmpKind::section_begin / sections_end), so that the analysis
// gives every section a logical thread of its own: two sections one thread ran in turn are as
// unordered as OpenMP says they are (analysis/happens_before.cpp). Recorded only while the runtime's
// OMPT events are, since a rank's threads are ordered by OpenMP only then.
#include <dlfcn.h>

#include <cstdint>

#include "tools/rmacheck/preload/hooks.h"
#include "tools/rmacheck/preload/openmp_runtime.h"
#include "tools/rmacheck/trace_format.h"

namespace {

template <class Fn> Fn next_definition(const char* name) {
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

unsigned said(unsigned section) {
    if (rmacheck::openmp::recording())
        rmacheck::record_omp(static_cast<uint8_t>(section ? rmacheck::trace::OmpKind::section_begin
                                                          : rmacheck::trace::OmpKind::sections_end),
                             section, 0);
    return section;
}

}  // namespace

extern "C" {

unsigned GOMP_sections_start(unsigned count) {
    static const auto real = next_definition<unsigned (*)(unsigned)>("GOMP_sections_start");
    return said(real ? real(count) : 0);
}

unsigned GOMP_sections2_start(unsigned count, uintptr_t* reductions, void** mem) {
    static const auto real = next_definition<unsigned (*)(unsigned, uintptr_t*, void**)>("GOMP_sections2_start");
    return said(real ? real(count, reductions, mem) : 0);
}

unsigned GOMP_sections_next(void) {
    static const auto real = next_definition<unsigned (*)(void)>("GOMP_sections_next");
    return said(real ? real() : 0);
}

}  // extern "C"
