// The slow verdict's statistics: which rank or node its peers have come to
// wait for, compared with the job's own baseline. Pure: no clock, no OS.
//
// Each sampling round gives every sampled rank's activity (ProgressTracker's
// classification). A rank is WAITED FOR in a round when it works (computing,
// its threads do, or it is stopped alone) while more than half of the other sampled ranks wait
// inside MPI; a node is waited for when any of its sampled ranks is. A rank
// that has become slow is the one its peers increasingly wait for, so:
//
//   baseline: the share of its rounds each unit (rank, node) was waited for
//             in the job's first `baseline_rounds` rounds;
//   look:     every `look_every` rounds, each unit's share in the last W
//             rounds, for each W of `windows`, is tested against its baseline
//             with Fisher's one-sided exact test; counts are divided by the
//             baseline's variance inflation (1+rho)/(1-rho), rho the lag-1
//             autocorrelation of the waited-for series (long phases make
//             neighbouring rounds alike: fewer independent rounds);
//   verdict:  a unit is slow when p <= alpha / (units x windows) (Bonferroni)
//             and its compute factor is at least `min_factor`, while the
//             job's estimated slowdown is at least `min_job_factor` (a rank
//             waited for more in a job no slower is held back, and the look
//             says so). A node is
//             named when more than half of its ranks are slow themselves,
//             else its slow ranks are named alone.
//
// A second evidence, for CPU starvation (a cgroup quota, a busy neighbour on
// its core), which the first cannot see where the peers busy-poll: a rank is
// STARVED in a round when the share of its runnable time that it waited on a
// run queue (schedstat) since its last round exceeds its peers' median by
// more than its baseline's 90th percentile of that difference (and by at
// least 5 points); a node likewise against the other nodes. Its shares are
// tested like the first's, in the same Bonferroni family; its factor is the
// CPU the unit got of its runnable time, against its peers, over the same
// ratio at baseline.
//
// A third, for a degraded network link, which neither of the others sees: every rank, the slow
// node's as much as the others, waits inside MPI for the exchanges that cross it, and none is
// starved of CPU. Each node's reading (every few rounds) is the smallest smoothed round-trip time
// among its ranks' TCP connections to other hosts that carried data since its last reading (the
// kernel's own estimate, socket diagnostics): a node whose link is slow has no fast connection
// left, while its peers keep their connections to each other. A node is SLOW-LINKED in a round
// when its reading exceeds the other nodes' median by more than its baseline's 90th percentile of
// that difference, and than that difference's baseline median plus kLinkMarginMs; tested like the
// others, in the same family, where three nodes or more have readings (with two, the link is
// between them: neither is named). Named alone, a slow link needs a job measurably slower.
//
// A fourth, for a CPU quota on a rank's own cgroup where the ranks outnumber their CPUs: held to about
// the share it had anyway, the rank gets no less CPU than its busy-polling peers, yet in bursts (a
// period's quota spent, it waits out the period), and every exchange waits for it (CP2K 2.2x slower,
// seen by neither evidence above). A rank is THROTTLED in a round when its quota's throttle count
// (cgroup cpu.stat nr_throttled, read every 4th round) grew since its previous reading while most
// of its peers' read then did not (a quota on the whole job's cgroup throttles every rank alike);
// tested like the others, in the same family; its factor is the job's slowdown by the peers' waiting,
// which the ranks' compute rates neither overrule nor undercut in the job's estimate (peers that compute
// inside MPI calls mislead them).
//
// A code imbalanced from its start (a master always waited for) has that
// share in its baseline: only a change is found. Each look keeps the level
// alpha; looks repeat, so alpha is a false-alarm rate: at most alpha false
// verdicts per look, one look per `look_every` rounds. docs/decision-rule.md,
// "The slow verdict".
#pragma once

#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hang/model/progress.h"
#include "hang/model/slow_verdict.h"

namespace jobsentry {

struct RankState {
    int rank = -1;
    Activity activity = Activity::in_mpi;
    // The main thread's cumulative time on a CPU and waiting on a run queue
    // (StackSample::main_run_ns, main_wait_ns); sched_known false: no evidence of starvation.
    bool sched_known = false;
    uint64_t run_ns = 0, wait_ns = 0;
    // How often a CPU quota has held it back (its cgroup's cpu.stat nr_throttled); -1: not read this
    // round (the watcher reads it every few rounds, on its own node only) or unknown.
    int64_t throttled = -1;
    // Its call chain changed since its previous sample (ProgressTracker); true where unknown.
    bool moved = true;
    // How long it took to stop for this sample (StackSample::stop_seconds); 0: unknown (a sample
    // another process took). A rank on its CPU stops at once; one waiting for a CPU only when next
    // scheduled, and is then seen where it gave the CPU up.
    double stop_seconds = 0;
};

struct SlowRound {
    double at = 0;  // when the round was taken (any clock; the verdict's `since` is on it)
    std::vector<RankState> ranks;
    // Per node, the smallest smoothed round-trip time (ms) among its ranks' TCP connections to
    // other hosts that carried data since its last reading (link_rtt.h); absent: not read this
    // round, or no such connection.
    std::map<std::string, double> node_link_ms;
    // The bytes the ranks' launchers (mpirun, orted, a Hydra proxy: the processes that relay their
    // output) on the watcher's node have written so far: the job's output as they relay it
    // (RankProcess::launcher); -1: not read this round (every few rounds) or none known.
    int64_t output_bytes = -1;
};

// A share's variance inflation, learnt from the baseline's series of one kind of evidence: a window
// of w rounds is worth its counts divided by of(w) in independent rounds.
struct SlowInflation {
    double markov = 1;        // (1+rho_1)/(1-rho_1), 1 when rho_1 <= 0
    std::vector<double> rho;  // pooled autocorrelations at lags 1, 2, ...
    double of(int window) const;
};

struct SlowRankConfig {
    double alpha = 1e-4;       // per look, over every unit and window (Bonferroni)
    int baseline_rounds = 300;  // the job's own baseline: its first rounds
    std::vector<int> windows{32, 64, 128, 256, 512};  // recent windows tested at each look, ascending
    int look_every = 4;         // rounds between looks
    double min_factor = 1.1;    // smaller estimated compute slowdowns are not named
    // A look whose estimated job slowdown is smaller names nothing: the job is not slower. Judged on
    // the peers' waiting (and a starved unit's own CPU), not on the compute rates reported: not
    // min_factor, as that estimate runs low (a 1.3x rank slowing its job 1.16x is estimated 1.09x).
    double min_job_factor = 1.0;
    // The verdict judges the job on a scale of tens of seconds, whatever the sampling rate the hang
    // verdict uses: a round less than min_spacing_s after the last one taken is left out (the
    // default interval's shortest pause, 0.2 s, keeps every round at the default rate), and a window
    // is tested only once its rounds span min_window_s. A sick node stays slow; a rank the scheduler
    // favours less for a few seconds is noise: sampled every 50 ms, 64-round windows (3 s) named a
    // rank of a balanced job in 7 runs out of 9; windows of 10 s still named hpl_like's rank 0,
    // waited for in 47 % of 32 rounds against 9 % at baseline for about 5 s, on a 4-rank run on 2
    // CPUs (bench/slow_replay on the recorded run: none at 15 s or 20 s; the injected faults of
    // the slow campaigns all named still, 8 s later at the median).
    double min_spacing_s = 0.2;
    double min_window_s = 20;
};

class SlowRankModel {
public:
    explicit SlowRankModel(SlowRankConfig config = {}, std::map<int, std::string> rank_node = {});

    // Ranks discovered later, or moved: a rank without a node is on node "".
    void set_node(int rank, const std::string& node);
    // One round; a round with fewer than two sampled ranks says nothing and is
    // skipped. Returns true when this round was a look.
    bool observe(const SlowRound& round);
    // The latest look's verdict; once slow, the last slow one is kept (the
    // job was slow from then on, even if a later window no longer shows it).
    const SlowVerdict& verdict() const { return verdict_; }
    // The latest look's own verdict, latched or not.
    const SlowVerdict& last_look() const { return last_look_; }
    const SlowRankConfig& config() const { return config_; }
    // The baseline's rounds are all in: from here on, rounds may be spaced otherwise (the CPU budget).
    bool baseline_complete() const { return static_cast<int>(baseline_.size()) >= config_.baseline_rounds; }
    // The baseline's variance inflation of the ranks' counts in the shortest window (1 until it is complete).
    double rank_inflation() const { return rank_inflation_.of(config_.windows.front()); }

private:
    struct Mark {
        int rank;
        bool working, waiting, waited_for;
        bool stopped = false;
        bool moved = true;        // RankState::moved
        bool on_cpu_known = false, on_cpu = false;  // it stopped within kOnCpuStopSeconds (RankState::stop_seconds)
        bool timed = false;       // run and wait are known and the rank was runnable long enough
        double run = 0, wait = 0;  // seconds since its previous round
        double dt = 0;             // seconds since its previous round; 0: run and wait unknown
        double starve = 0;        // its waiting share of runnable time minus its peers' median (timed, with peers)
        bool starve_known = false;
        int64_t throttled = -1;   // RankState::throttled
        // Its quota's throttle count was read now and before (same cgroup), and grew in between
        // while most of its peers read now did not (mark_throttling).
        bool throttle_known = false, throttled_now = false;
    };
    struct Round {
        double at;
        std::vector<Mark> marks;
        std::map<std::string, double> node_starve;  // as Mark::starve, a node against the other nodes
        std::map<std::string, double> node_link_ms;  // SlowRound::node_link_ms
        std::map<std::string, double> node_link;     // its reading minus the other nodes' median (ms)
        int64_t output_bytes = -1;                   // SlowRound::output_bytes
    };
    struct SchedClock {
        uint64_t run_ns = 0, wait_ns = 0;
        double at = 0;
    };
    // A rank or a node, as tested, for one kind of evidence.
    struct Unit {
        bool is_node = false;
        int rank = -1;
        std::string node;
        SlowEvidence kind = SlowEvidence::waited_for;
    };
    // The rounds a unit was seen in and marked in (waited for, or starved).
    struct Share {
        int seen = 0, waited = 0;
        double value() const { return seen ? static_cast<double>(waited) / seen : 0; }
    };
    struct Shares {
        std::map<int, Share> rank, rank_starved, rank_throttled;
        std::map<std::string, Share> node, node_starved, node_link;
        const Share& of(const Unit& u) const;
    };
    // A unit's best window at one look.
    struct Finding {
        Unit unit;
        Share before, after;
        int window = 0;
        double p = 1;
        double since = 0;  // its change point
    };
    using Rounds = std::vector<const Round*>;

    Round mark(const SlowRound& round);
    void time_marks(Round* round) const;
    void mark_throttling(Round* round);
    bool starved(const Round& round, const Unit& u, bool* seen) const;
    bool slow_linked(const Round& round, const std::string& node, bool* seen) const;
    void learn_starvation();
    void learn_links();
    // The node's median link reading over these rounds (0: none).
    double link_median(const Rounds& rounds, const std::string& node) const;
    const std::string& node_of(int rank) const;
    bool in_unit(const Unit& u, int rank) const;
    Shares shares(const Rounds& rounds) const;
    void count_round(const Round& round, Shares* shares) const;
    const Shares& baseline_shares() const;
    // The shares of the last W rounds for each W of `windows` (ascending).
    std::vector<Shares> recent_shares(const std::vector<int>& windows) const;
    void learn_inflation();
    SlowVerdict look() const;
    // The units significant at this look; *smallest gets the smallest p of any unit.
    std::vector<Finding> significant(const SlowVerdict& v, const Shares& base, const std::vector<int>& windows,
                                     double* smallest) const;
    double compute_factor(const Finding& f, const std::vector<int>& suspects) const;
    // The CPU share of runnable time of the unit and of its peers over these rounds (0 when untimed);
    // peers_per_own: their runnable time over the unit's (to weigh a change of their share against
    // one of its own).
    void cpu_shares(const Rounds& rounds, const Unit& u, double* own, double* peers,
                    double* peers_per_own = nullptr) const;
    double peers_waiting(const Rounds& rounds, const std::vector<int>& suspects, int* samples = nullptr) const;
    // The job's slowdown by its peers' (every rank but the suspects) working share at baseline over
    // their share in these rounds: in a bulk-synchronous step they compute c and wait for the slowest.
    double waiting_factor(const Rounds& now, const std::vector<int>& suspects) const;
    // Sets v->job_factor, the estimate reported: from the ranks' compute rates where two or more ranks
    // are timed in both periods (their samples taken on the CPU where those are enough), else the
    // peers' waiting.
    struct JobEstimate {
        double by_waiting = 1;  // waiting_factor: decides whether the job is slower at all
        // The median of the ranks' rate ratios from all their samples (0: fewer than two ranks timed):
        // what the looks' other holds read, as when the false-alarm evidence was gathered.
        double by_rates = 0;
        bool rates_well_founded = false;  // two or more of those ranks had kMinComputingSamples at baseline
    };
    JobEstimate estimate_job_factor(const Rounds& now, SlowVerdict* v) const;
    // Per rank, its CPU time per second of wall time times the share of its samples (stopped ones
    // left out) that compute: how fast it gets through its compute work. Ranks with less than
    // kMinCpuEvidenceSeconds of timed wall time are left out. floor: the rate had one more of its
    // samples computed (the bound used when none did). on_cpu: the same from the samples taken while
    // it was on its CPU alone (the share of its CPU time that computes; running 0: none known).
    struct ComputeRate {
        double rate = 0, floor = 0;
        int computing = 0;  // its samples that computed: how much the rate rests on
        double on_cpu_rate = 0, on_cpu_floor = 0;
        int on_cpu_running = 0, on_cpu_computing = 0;
    };
    std::map<int, ComputeRate> compute_rates(const Rounds& rounds) const;
    // The job's output rate in these rounds: the bytes a second its ranks' launchers wrote
    // (SlowRound::output_bytes). False where it is no steady measure of the job's pace: the count grew
    // in fewer than kMinOutputGrowths of its readings, or the rate of the rounds' first half and that
    // of their second differ by more than kOutputSteadiness.
    bool output_rate(const Rounds& rounds, double* rate) const;
    // The peers' (every rank but the suspects) CPU share of their runnable time; false when too little is timed.
    bool peers_cpu_share(const Rounds& rounds, const std::vector<int>& suspects, double* share) const;
    double change_point(const Finding& f) const;
    // The longest time in these rounds, from their first to their last, during which no rank but the
    // suspects moved (0 when they moved in every round); *now: the time since they last moved.
    double peers_still(const Rounds& rounds, const std::vector<int>& suspects, double* now) const;
    Rounds baseline() const;
    Rounds recent(int window) const;
    Rounds since(double at) const;  // the stored rounds from `at` on: the estimates' window
    // The rank's throttle count known at two rounds or more of these and the same at every one: no
    // CPU quota held it back (false also when unknown, or when it fell: the rank changed cgroup).
    bool never_throttled(int rank, const Rounds& rounds) const;
    // The rank was seen stopped on its own (kStoppedAlone) in these rounds, unlike at baseline.
    bool stopped_alone(int rank, const Rounds& rounds) const;

    SlowRankConfig config_;
    std::map<int, std::string> rank_node_;
    mutable std::optional<Shares> base_shares_;  // shares(baseline()), once it is learnt
    std::vector<Round> baseline_;
    std::deque<Round> recent_;  // rounds after the baseline, at most twice the longest window
    int rounds_ = 0;
    double last_at_ = -std::numeric_limits<double>::infinity();  // of the last round taken
    SlowInflation rank_inflation_, node_inflation_;  // of the baseline's series
    SlowInflation rank_starve_inflation_, node_starve_inflation_;
    std::map<int, double> rank_starve_threshold_;  // from the baseline; units without one are not tested
    std::map<std::string, double> node_starve_threshold_;
    std::map<std::string, double> node_link_threshold_;  // from the baseline; nodes without one are not tested
    SlowInflation node_link_inflation_;
    std::map<int, SchedClock> last_sched_;
    std::map<int, int64_t> last_throttle_;  // each rank's last throttle reading
    SlowInflation rank_throttle_inflation_;
    SlowVerdict verdict_, last_look_;
};

}  // namespace jobsentry
