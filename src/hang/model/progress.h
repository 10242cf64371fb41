// Per-rank evidence on top of S_out, pure code over stack samples.
//
// Two views of a rank's stack:
//  * the progress signature: the function-level call chain from the outermost
//    frame down to, and including, the outermost MPI frame (the MPI call the
//    user code made); outside MPI the whole chain. Program counters are left
//    out: a tight infinite loop moves its PC all the time, yet its chain never
//    changes. Verification uses it: a rank whose chain changes made progress.
//  * the exact stack: every PC. Unchanged PCs and no CPU time since the last
//    sample mean the rank did nothing at all (sleeping, blocked, stopped).
//
// S_out counts a rank as outside when it runs user code, as ParaStack does,
// except when it is idle outside MPI (stopped by a signal, or no CPU time and
// the same exact stack as last time): such a rank is as stuck as one waiting
// inside MPI. That is what lets a small job, where every rank is monitored,
// reach a low S_out when one rank sleeps or is stopped. See
// docs/decision-rule.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hang/sampler/frame.h"

namespace jobsentry {

uint64_t progress_signature(const std::vector<Frame>& frames);
uint64_t exact_signature(const std::vector<Frame>& frames);
// Every frame's function (its module when unnamed), innermost to outermost: equal for two ranks of
// one binary stopped in the same call chain, whatever their load addresses.
uint64_t chain_signature(const std::vector<Frame>& frames);

// The outermost MPI function a stack is in ("PMPI_Allreduce"), empty outside MPI.
std::string outermost_mpi_call(const std::vector<Frame>& frames);

// The same of a sample, from its frames or, for a node agent's compact
// sample (digest_only), from the values the agent computed.
uint64_t progress_signature(const StackSample& sample);
uint64_t exact_signature(const StackSample& sample);
uint64_t chain_signature(const StackSample& sample);  // 0 for a compact sample of an agent that sent none
std::string outermost_mpi_call(const StackSample& sample);
// A sample reduced to what the model needs: digests, no frames.
StackSample compact_sample(StackSample full);

enum class Activity {
    in_mpi,         // inside an MPI call
    computing,      // outside MPI and active (CPU time used or stack moved, or first sample)
    idle_outside,   // outside MPI, no CPU time and the same exact stack as last time
    stopped,        // stopped by a signal (state T) or a tracer (t), in or out of MPI
    threads_working,  // outside MPI, the main thread idle while the rank's other threads compute
                      // (an OpenMP/pthreads main thread waiting for its team): working, not stuck
};
const char* to_string(Activity a);

struct RankObservation {
    int rank = -1;
    bool in_mpi = false;
    uint64_t exact = 0;  // exact_signature()
    char state = '?';
    uint64_t cpu_ticks = 0;       // the whole process
    uint64_t progress = 0;        // progress_signature()
    uint64_t main_cpu_ticks = 0;  // the main thread alone (the one sampled)
    uint64_t main_user_ticks = 0; // ...of which user time
};

// Whether a rank's main thread ran between two of its samples: user time, or system time while it
// is not asleep (state S). A sleeping thread is charged system time by the supervisor's own ptrace
// stops (each interrupts and restarts its sleep), and must still count as idle; a thread busy in
// the kernel (state R or D) counts as running, as before.
bool main_thread_ran(uint64_t user_ticks_used, uint64_t cpu_ticks_used, bool ever_awake);

// Whether the states of a rank's verification samples (/proc state letters, one per sample) show a
// rank stopped by a signal for good: T or t in every one. A rank found stopped in some looks and
// running or asleep in others was continued meanwhile (a stop/continue throttle, a gang scheduler):
// it is judged by its stacks and CPU time like any other, never as stopped.
bool stopped_throughout(const std::string& states);

// CPU ticks the rank's other threads must use between two samples while the
// main thread stands idle for the rank to count as working: Open MPI's
// helper threads (libevent, PMIx) sleep in epoll and use none in practice.
constexpr uint64_t kThreadsWorkingTicks = 3;
// The same over a verification window (5 rounds or more): Open MPI's helper threads used 2 ticks
// in the window of a rank asleep in user code; an OpenMP team at work uses hundreds.
constexpr uint64_t kThreadsWorkingWindowTicks = 10;

class ProgressTracker {
public:
    // Classifies the observation against the rank's previous one and remembers
    // it. moved, if given, tells whether the progress signature changed since
    // that previous observation (true for a first observation: no evidence of
    // standing still).
    Activity observe(const RankObservation& obs, bool* moved = nullptr);
    void forget(int rank) { last_.erase(rank); }

private:
    std::map<int, RankObservation> last_;
};

// S_out: share of the observed ranks computing outside MPI.
double effective_s_out(const std::vector<Activity>& activities);

// S_move: share of the observed ranks whose progress signature changed since
// their previous sample. A hang of any kind holds it at 0.
double share_moved(const std::vector<bool>& moved);

// A rank's state as seen by verification: several fresh samples in a row.
struct RankVerification {
    int rank = -1;
    bool sampled = false;        // at least one sample succeeded
    bool in_mpi = false;         // in the last sample
    bool in_mpi_any = false;     // in at least one sample: waiting or polling, not working
    bool signature_changed = false;
    bool stopped = false;        // T or t in every sample (stopped_throughout), or D in every one, and no CPU time
                                 // between them; or never stopped for sampling
    bool seen_stopped = false;   // stopped, or T or t in at least one sample (whole_job_stopped)
    uint64_t cpu_ticks_used = 0; // over the verification window
    uint64_t main_cpu_ticks_used = 0;  // of the main thread alone: 0 for a rank asleep or blocked
    bool main_ran = false;       // main_thread_ran over the window (every sample in state S: user time only)
    bool outlier_run = false;    // its still run outlasted 10x the job's longest healthy one (rank_stillness.h)
    // Of the time its main thread could run over the window (on a CPU or waiting on a run queue,
    // schedstat), the share it ran; -1 when unknown or when it was runnable for too little of the
    // window to say (asleep, blocked). See starved_ranks.
    double run_share = -1;
    std::string mpi_call;        // outermost MPI function, empty outside MPI
};

// The main thread ran on a CPU between two looks at a rank, beyond what being looked at costs (a
// stopped process seized for a sample runs microseconds of kernel code): 10 ms by schedstat, or 2
// clock ticks. The main thread's, not the process's: a rank whose main thread is blocked in D while
// a helper thread runs is blocked. Under a stop/continue duty cycle on a loaded node a rank was
// caught stopped in all five looks of a 1-s window while it ran 140 ms between them.
bool ran_between_looks(const StackSample& first, const StackSample& last);

// A rank's evidence from its samples of a verification window (status ok, oldest first) and its last
// sample before the window (nullptr: none): sampled, signature_changed, stopped, seen_stopped, in_mpi,
// in_mpi_any, mpi_call, the CPU ticks, main_ran and run_share. What only the watcher knows (a rank
// that exited or never stopped in the window, woke by itself, or whose still run is an outlier) it
// adds itself. The watcher and bench/model_replay both build their windows with it.
RankVerification verify_rank(int rank, const std::vector<StackSample>& window, const StackSample* before);

struct Verdict {
    bool hang = false;            // no rank made progress
    std::vector<int> progressed;  // ranks whose signature changed
    std::vector<int> suspects;    // root-cause ranks
    std::string reason;           // one line for people
};

// The ranks starved of CPU over a verification window: runnable, but given a CPU for less than a
// quarter of the share the ranks' median got (and under half of their runnable time). Nothing is
// known of such a rank (a busy process pinned beside it, a CPU quota): it may be about to leave the
// call it is seen in, so neither judgement below claims a hang whose suspects include one. A starved
// rank that is no suspect is a victim (a peer polling beside a rank that spins for good). A node
// where every rank is oversubscribed alike starves none of them.
std::vector<int> starved_ranks(const std::vector<RankVerification>& ranks);
// RankVerification::run_share from a rank's first and last samples of a window: -1 without
// schedstat in both, without their times (taken_at), or when the main thread was runnable for less
// than a fifth of the window.
double run_share(const StackSample& first, const StackSample& last);

// Confirms or clears an alarm and names the root-cause ranks:
//   1. ranks stopped by a signal or blocked in the kernel (state D, or never
//      stopping for a sample), if any;
//   2. else the ranks outside MPI while others wait inside it;
//   3. else (every rank in MPI) the ranks outside the largest group of ranks
//      sharing the same MPI call, as STAT shows a hang as a small odd branch,
//      when that largest group is unique;
//   4. else every rank (all stuck in one call, or in calls of which none is
//      the odd one out: a communication deadlock).
Verdict judge_verification(const std::vector<RankVerification>& ranks);

// Confirms or clears a per-rank alarm (rank_stillness.h) raised for suspects.
// A rank that polls (MPI_Test*, MPI_Iprobe between posts and user code)
// changes its call chain all the time, hung peer or not, so the others'
// movement proves nothing here; what matters is:
//   * a suspect still stands still (no change of its call chain, and never
//     inside MPI, or stopped) — else cleared;
//   * a frozen suspect (stopped, or its main thread used no CPU time in the
//     window: asleep, blocked) is evidence on its own, even while other
//     ranks work on (a master-worker farm goes on without a hung worker,
//     until it waits for it);
//   * a spinning suspect (CPU used, one call chain) is told from a long
//     computation only by its peers: at least one must wait (inside MPI in
//     some sample) and none may work (outside MPI in every sample with a
//     moving call chain) — else cleared, judged again later — unless its run
//     is an outlier (outlier_run: ten times the longest healthy one);
//   * every rank stopped at once is a suspended job, never a hang.
// Ranks found standing still outside MPI besides the suspects join them
// under the same rules. The root cause named: the stuck ranks.
Verdict judge_still_verification(const std::vector<RankVerification>& ranks, const std::vector<int>& suspects);

// Every sampled rank stopped by a signal: a suspended job (scontrol suspend,
// gang scheduling, kill -STOP of the whole job), never a hang.
bool whole_job_stopped(const std::vector<RankVerification>& ranks);

}  // namespace jobsentry
