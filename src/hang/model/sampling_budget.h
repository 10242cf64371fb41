// The supervisor's own sampling rate, held to a share of the job's CPU where that CPU is scarce.
// On a node whose CPUs the job keeps busy, every CPU-second the supervisor takes is one the job does
// not get; elsewhere it comes out of idle time. So, where the job's local ranks use at least
// kFullNode of the CPUs they may run on, the healthy-phase sampling interval is stretched until the
// supervisor's CPU is within budget_percent of the job's, at most kMaxStretch times: over the last
// window and over the whole run so far, whichever is higher, so that the start-up (every binary's
// unwind and symbol tables, read once) is paid back by sampling less afterwards and the share a
// user sees in the report, start-up included, is the one held. The rule is the decision's own:
// ParaStack's statistics count samples, not seconds, so a longer interval delays a verdict but never
// makes one likelier; and the watcher samples at the unstretched rate as soon as a run of suspicious
// samples or a still rank begins (watcher_sampling.cpp), so a hang's evidence comes as fast as
// without a budget. Pure: the clocks are read by the caller.
#pragma once

namespace jobsentry {

class SamplingBudget {
public:
    static constexpr double kWindowSeconds = 30;  // the share is judged over this much of the past
    static constexpr double kFirstWindowSeconds = 10;  // the first judgement comes sooner: short jobs count too
    static constexpr double kMaxStretch = 4;
    static constexpr double kFullNode = 0.8;      // of the CPUs the local ranks may use
    static constexpr double kAim = 0.9;           // of the budget: a window's share varies by about that much

    explicit SamplingBudget(double budget_percent) : budget_(budget_percent) {}

    // Whether observe() would use a point now: the first, then one per window (the caller's sums of
    // CPU time over every rank are not taken at every round).
    bool due(double now) const {
        return budget_ > 0 && (from_.t < 0 || now - from_.t >= (judged_ ? kWindowSeconds : kFirstWindowSeconds));
    }
    // Seconds (monotonic) and CPU seconds so far, since each process started: the supervisor's, the
    // job's (every node), the job's local ranks'; cpus: how many CPUs those ranks may run on (0:
    // unknown). Judges the window since the previous point when it is a whole window long; ignored
    // otherwise.
    void observe(double now, double supervisor_s, double job_s, double local_job_s, int cpus);

    double stretch() const { return stretch_; }  // >= 1: the factor on the healthy-phase interval
    double budget_percent() const { return budget_; }
    double max_stretch_seen() const { return max_seen_; }
    // Seconds sampled at a stretch, up to now (the window under way included).
    double seconds_stretched(double now) const {
        return stretched_s_ + (stretch_ > 1 && from_.t >= 0 && now > from_.t ? now - from_.t : 0);
    }
    bool full_node() const { return full_node_; }      // at the last judgement
    double window_share_percent() const { return share_; }  // at the last judgement; -1: none yet
    double whole_share_percent() const { return whole_share_; }  // the run so far, at the last judgement

private:
    struct Point {
        double t = -1, supervisor = 0, job = 0, local = 0;
    };
    double budget_;
    double stretch_ = 1;
    double max_seen_ = 1;
    double stretched_s_ = 0;
    bool full_node_ = false;
    double share_ = -1;
    double whole_share_ = -1;
    bool judged_ = false;
    Point from_;  // the start of the window being gathered; t < 0: none yet
};

}  // namespace jobsentry
