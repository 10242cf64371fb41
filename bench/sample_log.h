// The supervisor's verbose log (--verbose, log_samples=yes) read back as sampling rounds, for the
// replays of bench/: model_replay (the hang verdict) and slow_replay (the slow verdict). A round is
// the line "sample N t=T ... S_out=X ... S_move=Y ... | r0:in_mpi+ r1:stopped ..." and, below it,
// "sample N record: r0=S,p=... v0=812 ..." (sample_record.h), plus the records of the watcher's own
// verification rounds and spin watch of a candidate raised there.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <vector>

#include "hang/model/progress.h"
#include "hang/model/rank_stillness.h"
#include "hang/sampler/frame.h"

namespace jobsentry::bench {

struct Round {
    double s_out = 0, s_move = 0;
    double t = 0;  // seconds since the watch began; a bootstrap stream's keep increasing across joins
    bool has_ranks = false, all_stopped = false;
    std::vector<RankRoundSample> ranks;
    std::map<int, Activity> activity;  // each sampled rank's, as the line names it
    std::map<int, StackSample> records;
    std::map<int, uint64_t> sleeps;  // each rank's voluntary context switches before the look, where logged
    std::map<int, int64_t> throttled;  // each rank's CPU quota throttle count, where read and logged ("q" words)
    int64_t output_bytes = -1;  // the bytes the ranks' launchers have written, where read and logged ("out=")
    // Where the recorded watcher verified a candidate of this round: its verification rounds' and
    // spin watch's records (what the job did then; the stream resumes after them).
    std::vector<std::map<int, StackSample>> verification, spin_watch;
    std::vector<std::map<int, uint64_t>> verification_sleeps;
    size_t source = 0;  // its index in the recorded stream
};

std::vector<Round> read_rounds(std::istream& in);

}  // namespace jobsentry::bench
