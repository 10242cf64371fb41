// Whether an unwind reached the first frame of its thread. Pure: names only.
//
// libunwind sometimes stops early or goes astray: one sample in about 2,000
// of an Open MPI rank polling over TCP ends in the vDSO's clock_gettime with
// a wrong caller. Such a chain differs from the rank's real one, and taken
// at face value it reads as "the rank moved on". A complete chain ends (in
// its outermost frames) in the C runtime's or the thread library's entry:
// _start, __libc_start_main, start_thread, clone. A stripped executable
// still has these through libc's exported names.
#pragma once

#include <vector>

#include "hang/sampler/frame.h"

namespace jobsentry {

bool reaches_thread_root(const std::vector<Frame>& frames);

}  // namespace jobsentry
