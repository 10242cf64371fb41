// The Watcher class, shared by the files that define its parts: watcher.cpp (the loop,
// discovery, rotation of visitors), watcher_sampling.cpp (a sampling round and the model),
// watcher_verify.cpp (verification of an alarm), watcher_report.cpp (the report).
// Internal to the watcher: everything else uses run_watcher() (watcher.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/proc_stat_files.h"
#include "hang/model/parastack.h"
#include "hang/model/progress.h"
#include "hang/model/rank_stillness.h"
#include "hang/model/sampling_budget.h"
#include "hang/model/unwind_filter.h"
#include "hang/sampler/stack_walker.h"
#include "hang/watch/detection_settings.h"
#include "hang/watch/discovery.h"
#include "hang/watch/link_reader.h"
#include "hang/watch/report.h"
#include "hang/watch/slow_tracker.h"
#include "hang/watch/watched_job.h"

namespace jobsentry {

// What ptrace needs, said once for every place that finds it refused.
std::string ptrace_requirements();
// The slow verdict's settings from the detection settings (the rest: slow_rank.h's defaults).
SlowRankConfig slow_config(const DetectionSettings& o);
// This host's name ("node" when unknown): the slow verdict's name of this node
// when the WatchedJob knows none of its own.
std::string local_node_name();

class Watcher {
public:
    Watcher(const DetectionSettings& o, WatchedJob& job)
        : opt_(o),
          job_(job),
          model_(ModelConfig{o.alpha, o.interval_ms / 1000.0, o.max_interval_ms / 1000.0, 20}),
          // Same samples, same significance; sampling times follow model_, so
          // this one never adapts an interval of its own.
          stillness_(ModelConfig{o.alpha, o.interval_ms / 1000.0, o.interval_ms / 1000.0, 20}),
          rank_runs_(StillnessConfig{o.alpha, 2.0}),
          slow_(slow_config(o)),
          rng_(o.seed ? o.seed : static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())),
          budget_(o.cpu_budget_percent) {}

    int run();

private:
    void log(const std::string& message) const { job_.logger().info(message); }
    void reap();
    void wait_for_events(double until);
    // Waits until `until` however many SIGCHLDs come first; false once the job ended or monitoring stopped.
    bool pause_until(double until);
    void discover();
    void pick_monitored();
    void rotate_visitors();
    // Samples of the given ranks, here by ptrace or by their node's agent; with link_ms, other
    // nodes' link readings of the same round (WatchedJob::sample_remote).
    std::map<int, StackSample> take_samples(const std::vector<RankProcess>& procs, bool full,
                                            std::map<std::string, double>* link_ms = nullptr);
    void sample_round();
    // The slow verdict's share of a round (slow_tracker.h): fed, and its news told.
    void track_slow(const std::vector<SlowTracker::Sampled>& round, const std::map<std::string, double>& links,
                    int64_t output_bytes);
    // The bytes this node's ranks' launchers have written so far (RankProcess::launcher): the job's
    // output as they relay it, the slow verdict's measure of its pace; -1 where none could be read.
    int64_t launchers_output();
    // Adds this node's link reading (link_reader.h) to the round's other nodes' ("": this one).
    void add_own_link_reading(std::map<std::string, double>& out);
    // --verbose: the line of one sampling round (detail: each rank's activity).
    void log_round(double s_out, double s_move, const std::string& detail) const;
    void verify(const std::vector<int>& still_suspects);
    // Counts the CPU time of the verification under way, if any (once).
    void end_verification();
    // The ranks whose still run (rank_stillness.h) calls for verification now.
    std::vector<int> rank_alarms(const std::vector<RankRoundSample>& round);
    double next_delay();
    std::string watch_spinning_suspects(const Verdict& verdict, const std::vector<RankVerification>& checks,
                                        std::map<int, StackSample>& latest);
    void stop_monitoring(const std::string& why);
    // twins: ranks whose stack the report shows as another rank's (report_stacks.h).
    void hang_found(const Verdict& verdict, const std::map<int, StackSample>& stacks,
                    const std::map<int, int>& twins = {});
    // After a hang's verdict: the frames of the suspects and of one rank per call chain not yet
    // shown, into latest; returns the twins of the ranks left with digests.
    std::map<int, int> fetch_report_stacks(std::map<int, StackSample>& latest, const std::vector<int>& suspects);
    RankReport rank_report(const RankProcess& proc, const StackSample* sample, const std::string& activity) const;
    void fill_report_common();
    void fill_cost();  // the supervisor's CPU time against the job's (cpu_cost.h)
    void no_hang_report();  // the ranks as last sampled, when the job ends without a hang
    bool ended() const { return job_.over(); }
    nlohmann::json evidence() const;
    nlohmann::json rank_runs_json() const;
    // A sample whose unwind went astray is no evidence (unwind_filter.h):
    // it is marked failed.
    // progress: the sample's progress_signature, where the caller has it (it hashes every name).
    void reject_astray_unwind(int rank, StackSample& s, std::optional<uint64_t> progress = std::nullopt);

    DetectionSettings opt_;
    WatchedJob& job_;
    ParaStackModel model_;      // on S_out, as ParaStack
    ParaStackModel stillness_;  // on S_move: see docs/decision-rule.md
    RankStillnessModel rank_runs_;  // per rank: how long it stands still outside MPI
    SlowTracker slow_;              // the slow verdict, beside the hang verdict: it never acts on the job
    LinkReader links_;              // this node's link readings for it (multi-node jobs)
    std::mt19937_64 rng_;
    StackWalker walker_;
    ProgressTracker tracker_;
    bool monitoring_ = opt_.detect;
    bool hang_ = false;
    bool terminating_ = false;

    std::vector<RankProcess> ranks_;        // every rank found
    std::vector<RankProcess> candidate_;    // last discovery, until it is seen twice
    std::vector<RankProcess> monitored_;
    std::vector<RankProcess> visitors_;     // unmonitored ranks sampled in turn (rotate_visitors)
    size_t next_visitor_ = 0;
    int visit_rounds_ = 0;
    static constexpr size_t kVisitorSlots = 2;
    static constexpr int kVisitRounds = 8;
    bool ranks_stable_ = false;
    // Seconds between discoveries: kDiscoverySeconds, doubled up to kDiscoveryMaxSeconds while
    // the rank set stays the same (watcher.cpp).
    static constexpr double kDiscoverySeconds = 2.0;
    static constexpr double kDiscoveryMaxSeconds = 30.0;
    double discovery_every_ = kDiscoverySeconds;
    double next_discovery_ = 0;
    double next_sample_ = 0;
    double sample_late_ = 0;  // how late this round started (bench/hostile_peers.sh: jitter under attack)
    double unreadable_since_ = 0;
    double started_ = monotonic_now();
    double streak_started_ = 0;  // unix time of the first sample of the current suspicious run
    double progress_seen_ = 0;   // unix time of the last round in which a monitored rank moved
    double still_phase_ = 0;     // unix time of the last round of the current phase without movement
    double longest_still_phase_ = 0;  // seconds: the longest healthy phase in which no monitored rank moved
    bool suspended_ = false;     // the last round found every rank stopped
    std::vector<RankAlarm> last_rank_runs_;
    std::map<int, int> sample_failures_;  // per rank, for bounded logging
    UnwindFilter unwinds_;                // which unwinds went astray
    bool no_ranks_warned_ = false;

    std::map<int, StackSample> last_sample_;  // per rank
    std::map<int, std::string> last_activity_;
    Judgement last_judgement_;
    Judgement last_stillness_;
    std::string last_verification_;
    int verifications_ = 0;
    double verification_began_ = -1;  // this thread's CPU time at its start; -1: none under way
    CpuCost cost_;                    // model and verification; the sampler's steps are walker_.cost()
    JobCpuTally job_cpu_;
    SamplingBudget budget_;           // the supervisor's CPU share where the job keeps its CPUs busy
    int local_cpus_ = 0;              // how many CPUs this node's ranks may use
    // This node's ranks outnumber the CPUs they may use (or that is unknown): only then can the
    // kernel's placement serve one rank less than its peers, the slow verdict's hold that needs the
    // CPU quota throttle counts (watcher_sampling.cpp), so only then are they read.
    bool ranks_share_cpus_ = true;
    // The launchers' /proc files, opened once each (a descriptor names its process, never the next
    // one given its pid); a launcher that could not be read once is never read again.
    std::map<pid_t, ProcStatFiles> launcher_files_;
    std::vector<pid_t> launchers_gone_;
    void observe_budget();
    Report report_;
};

}  // namespace jobsentry
