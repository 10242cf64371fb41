// Which stack samples are evidence, as far as the unwind itself goes.
//
// An unwind that does not reach its thread's entry (stack_root.h) may have
// gone astray: an Open MPI rank polling over TCP ends about one sample in
// 2,000 in the vDSO's clock_gettime with a wrong caller, and that chain, taken
// at face value, reads as "the rank moved on". So once a rank's unwinds have
// reached the entry, a later one that does not is set aside — unless the same
// short chain comes back in the rank's next sample: a rank hung where the
// unwinder cannot get past a frame (in a signal handler that interrupted code
// without unwind tables, say) shows the same short chain every time, and
// setting all of them aside would hide that rank from the detector (a CI run
// then named every other rank as deadlocked). Two astray unwinds in a row
// that agree by chance are far rarer than one.
// A rank whose unwinds never reached an entry (static and stripped, JIT code)
// keeps every sample.
#pragma once

#include <cstdint>
#include <map>
#include <set>

namespace jobsentry {

class UnwindFilter {
public:
    // `chain` is the sample's function-level call chain (progress_signature).
    // True when the sample is evidence.
    bool accept(int rank, bool complete, uint64_t chain);

private:
    std::set<int> reach_entry_;                 // ranks whose unwinds have reached their thread's entry
    std::map<int, uint64_t> last_short_chain_;  // the chain of a rank's latest sample, if it fell short
};

}  // namespace jobsentry
