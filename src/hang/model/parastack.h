// The ParaStack hang model (Li, Chen, Gupta), pure arithmetic with no ptrace.
//
// Each sample gives S_out, the share of monitored ranks outside MPI. The
// history of S_out forms an empirical CDF F. With n samples in the history
// the sample-size level gives (p̂, d); a sample is a suspicion when
// S_out <= t = F^-1(p̂). After k consecutive suspicions a hang is claimed when
// q^k <= alpha. Three points go beyond the slides, for reasons in
// docs/decision-rule.md:
//   * q uses the observed suspicion probability F(t), which exceeds p̂ when
//     S_out takes few values (small jobs): q = F(t) + d, not p̂ + d;
//   * q is at least the observed P(S_out <= t | previous <= t) plus
//     the d of that estimate's own sample size, so healthy phases that last
//     several samples (correlated samples) raise the bar instead of causing
//     alarms;
//   * the samples of the current run of suspicions stay out of the history
//     until the run ends, so a hang cannot teach the model that it is normal;
//   * within a run, each lower level v < t that the run's samples reached is
//     tested too: the last K_v samples all <= v, with q_v from F(v) and the
//     conditional estimate at v, claims a hang when q_v^K_v <= alpha / L
//     (Bonferroni over the L distinct values below t). S_out takes few values
//     in small jobs, so t can sit high (0.75 of 4 ranks) while a hang holds
//     S_out at a value (0) that is rare; this finds it in a few samples;
//   * when q at t reaches 1 the model cannot judge runs at t (uninformative):
//     samples at or above t are learnt, but a run strictly below t is still
//     held back and tested at its lower levels;
//   * a run of samples <= t that has lasted twice as long as any such run
//     this job has ended (and at least long_run_min samples, and twice the
//     run a verification last cleared) raises a "long run" alarm for
//     verification: a hang that holds S_out exactly at a t where q is 1 is
//     learnt, pins q at 1 for good and would never be found; with q just
//     below 1 q^k takes hundreds of samples.
// The sampling interval I is doubled (up to a cap) while the runs test says
// the recent history is not random; the next delay is rand(I) + I/2.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <optional>
#include <random>
#include <vector>

#include "hang/model/ecdf.h"

namespace jobsentry {

struct SampleSizeLevel {
    double p_hat;
    double d;
};

// (0.47, 0.3) for 11 <= n < 19, (0.27, 0.2) below 42, (0.12, 0.1) below 86,
// (0.06, 0.05) from 86 on; nullopt below 11 (too few samples to judge).
std::optional<SampleSizeLevel> level_for_sample_size(uint64_t n);

struct ModelConfig {
    double alpha = 0.001;
    double interval_s = 0.4;       // initial I
    double max_interval_s = 6.4;   // cap for the doublings
    int runs_window = 20;          // samples per runs test
    int long_run_min = 20;         // the shortest run that raises a long-run alarm
};

struct Judgement {
    bool learning = false;      // history too small, or suspicions too common (q = 1), to judge
    bool suspicion = false;
    double threshold = 0;       // t = F^-1(p̂)
    double q = 1;               // estimated probability of one more suspicion
    int streak = 0;             // k, consecutive suspicions including this one
    double probability = 1;     // q^k
    // The most significant lower level (v < t) of the run, if any.
    double tight_level = -1;    // v; -1 when the run never went below t
    int tight_streak = 0;       // K_v, the last samples all <= v
    double tight_q = 1;         // q_v
    double tight_probability = 1;  // L * q_v^K_v, compared with alpha
    // The run of samples <= t so far (committed or held), and the length at which it raises a
    // long-run alarm; 0 when no run at t can end (nothing above t seen) or the sample is above t.
    int run = 0;
    int run_bar = 0;
    bool long_run = false;      // run >= run_bar: an alarm for verification, with no probability
    bool hang = false;          // q^k <= alpha, or L * q_v^K_v <= alpha, or long_run
    // The sample is at or below t (a suspicion, or learnt at t while q is 1): the pair it begins
    // teaches the conditional estimate, so the next sample must come at the interval runs are
    // sampled at (the watcher's CPU budget never stretches it).
    bool at_most_threshold = false;
};

class ParaStackModel {
public:
    explicit ParaStackModel(ModelConfig config = {});

    Judgement observe(double s_out);

    // Verification found progress: the run of suspicions was healthy after
    // all. It joins the history (making such runs less surprising next time).
    void dismiss_streak();

    // Next pause before sampling, in seconds: uniform in [I/2, 3I/2).
    double next_delay(std::mt19937_64& rng) const;

    double interval() const { return interval_; }
    int doublings() const { return doublings_; }
    uint64_t history_size() const { return history_.size(); }
    const ModelConfig& config() const { return config_; }

private:
    Judgement observe_uninformative(double s_out, const SampleSizeLevel& level, Judgement j);
    void commit(double s_out);
    void flush_streak();
    double conditional_at_most(double level) const;
    void judge_lower_levels(const SampleSizeLevel& level, Judgement* j) const;
    void maybe_adapt_interval();
    void track_runs(double s_out);
    uint64_t run_at_most(double level) const;
    void judge_long_run(double threshold, Judgement* j) const;

    ModelConfig config_;
    double interval_;
    int doublings_ = 0;
    Ecdf history_;
    std::vector<double> runs_buffer_;
    std::vector<double> streak_;      // S_out of the current run of suspicions
    // Consecutive committed samples (a, b), counted per pair of values, for
    // P(b <= v | a <= v) at any level v. Bounded by the distinct values squared.
    std::map<std::pair<int64_t, int64_t>, uint64_t> transitions_;
    bool has_previous_ = false;
    double previous_ = 0;
    // Runs over every sample observed, committed or held: the latest sample of each value, and
    // per value v the longest run of samples <= v that ended (a sample above v came). Bounded by
    // the distinct values, as the history is.
    uint64_t observed_ = 0;
    std::map<int64_t, uint64_t> latest_at_;
    std::map<int64_t, uint64_t> longest_ended_;
    uint64_t dismissed_at_ = 0;  // the sample a verification last cleared an alarm at
};

}  // namespace jobsentry
