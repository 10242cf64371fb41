#include "hang/model/slow_rank.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <set>

#include "hang/model/fisher_test.h"
#include "hang/model/median.h"

namespace jobsentry {
namespace {

// A main thread that computes, or whose threads do (an OpenMP team): work the peers may wait for.
// A rank stopped on its own (a stop/continue throttle; the watcher never feeds a round in which
// the whole job is stopped) has not finished its step either: its peers wait for it all the same.
bool works(Activity a) {
    return a == Activity::computing || a == Activity::threads_working || a == Activity::stopped;
}

// Strong positive autocorrelation (one phase spanning dozens of rounds)
// would otherwise shrink the counts to nothing; beyond this the test is
// hopeless anyway.
constexpr double kMaxInflation = 20;
// The baseline's autocorrelations are summed up to one lag per this many of its rounds (30 of the
// default 300): further lags rest on too few pairs to be more than noise.
constexpr size_t kInflationLagsPer = 10;

// Starvation: a rank's round counts only when it was runnable (on a CPU or
// waiting for one) for at least this share of the time since its last round;
// a rank asleep in a blocking wait or in I/O is not starved, whatever its share.
constexpr double kMinRunnable = 0.2;
// A unit is starved in a round when its difference from its peers exceeds
// its baseline's 90th percentile, and the baseline's median by this much at least.
constexpr double kStarveQuantile = 0.9;
constexpr double kStarveMargin = 0.05;
// The peers' CPU share is recorded only over this much of their runnable time.
constexpr double kMinCpuEvidenceSeconds = 2;
// A rank's compute rate at baseline counts towards how sure the job factor is when it rests on at
// least this many computing samples (a count of 20 has a relative standard error of about 22 %; a
// ratio of two such rates, about 32 %). CP2K on 4 ranks of 2 cores computes in 2-7 % of its samples:
// 2-12 in a 100-round baseline, and its rates' median said ~0.71x where the job went 20x slower.
constexpr int kMinComputingSamples = 20;
// A sample caught its rank on its CPU when the rank stopped within this time: a running thread stops
// in tens of microseconds, one waiting on a run queue when it is next scheduled (milliseconds where
// the ranks share their CPUs). 300, 500 and 1000 us gave the same picture on LAMMPS and CP2K runs
// (docs/benchmarks.md, "Samples taken on the CPU").
constexpr double kOnCpuStopSeconds = 500e-6;
// The job's output rate (the bytes its launchers relay a second) measures its pace where it grew in
// at least this many readings of each period, and the halves of each period agree within this factor:
// a code that prints a line or a block per step writes as fast as it steps (NWChem: 1484 bytes a step,
// every step; CP2K under a quota: 3.3x fewer bytes a second, 3.2x fewer steps), one that wrote its
// input echo and then only at the end does not. Its ranks' own writes are no such measure: NWChem's
// go mostly to scratch files, 100-440 MB a step.
constexpr int kMinOutputGrowths = 12;
constexpr double kOutputSteadiness = 1.5;
constexpr size_t kStarveBaselineValues = 20;  // fewer timed baseline rounds: the unit is not tested for starvation
// A rank is tested for its quota's throttling with this many throttle readings in the baseline at
// least (one every 4th round, where the ranks outnumber their CPUs: 75 of the default 300 rounds).
constexpr int kThrottleBaselineReadings = 8;
// A one-node job whose other ranks lost at least this factor of their CPU share since baseline, and at
// least the square root of the starved rank's own loss (half of it on a log scale): the node is
// contended, and the worst served rank says nothing of its own (decision-rule.md §5).
constexpr double kNodeContended = 1.2;
// A rank waited for while its peers stood still this long is in a phase of the code's own (one rank
// computes alone: a serial setup, analysis or output step) or hung, not slow: a slow rank holds its
// peers up step by step, and they move at every step's end. A long serial phase after the baseline
// was named ~8x on a balanced run (dgemm_phase computing alone in one function for 15-45 s). And
// while they stand still now, longer than a slowed step of a busy code lasts, the look waits to
// see whether the stretch ends as a step or goes on as a phase (the phase above was named 5 s in).
constexpr double kPeersStillSeconds = 10;
constexpr double kPeersStillNowSeconds = 2;
// A rank seen stopped in at least this share of its rounds (rounds with every rank stopped are left out:
// a suspended job), and in more than twice its share at baseline, was stopped on its own.
constexpr double kStoppedAlone = 0.1;
// A one-node job whose other ranks gained at least kPeersGained of their CPU share since baseline,
// or together at least kPeersGainedOfLoss of the CPU time a rank lost, while that rank, never
// throttled by a CPU quota, lost its own: the job's ranks outnumber the CPUs they may run on and
// the kernel serves them unevenly (decision-rule.md §5). The second: a rank's small loss spread
// over three peers raises each by less than 5 % (a statically imbalanced 4-rank halo_waitall on 2
// CPUs, replayed at a looser level: rank 3 starved ~1.10x, its peers at 48.3 % then 49.7 %). A
// process beside the rank takes most of what the rank loses from the job, and its peers gain
// little of it. A third, not a half: the windows begin a little before the change, and in the unit
// test a loss of which the peers gained 0.58 by design was named at a half.
constexpr double kPeersGained = 1.05;
constexpr double kPeersGainedOfLoss = 1.0 / 3;
// A node is slow-linked in a round only when its link reading exceeds the other nodes' median by
// this much at least (ms): connections on one switch differ by microseconds, a delayed
// acknowledgement by up to 40 ms now and then (the 90th percentile covers those); a link that
// holds an MPI job up adds milliseconds to every round trip.
constexpr double kLinkMarginMs = 2;
// Link readings need three nodes: with two, a slow link between them raises both alike.
constexpr size_t kLinkNodes = 3;

// Each value against the median of the others: how much more of its runnable time it waited for a CPU.
template <typename Key>
std::map<Key, double> against_peers(const std::map<Key, double>& shares) {
    std::map<Key, double> out;
    if (shares.size() < 2) return out;
    for (const auto& [key, share] : shares) {
        std::vector<double> others;
        for (const auto& [other, value] : shares)
            if (other != key) others.push_back(value);
        out[key] = share - median_of(others);
    }
    return out;
}

// The baseline threshold of a unit's values (starvation, link): their 90th percentile, and their
// median plus `margin` at least; none when too few.
std::optional<double> baseline_threshold(std::vector<double> values, double margin) {
    if (values.size() < kStarveBaselineValues) return std::nullopt;
    std::sort(values.begin(), values.end());
    const double q = values[std::min(values.size() - 1, static_cast<size_t>(kStarveQuantile * values.size()))];
    return std::max(q, median_of(values) + margin);
}

int deflate(int count, double inflation) { return static_cast<int>(std::lround(count / inflation)); }

// The autocorrelations of the baseline's waited-for (or starved, slow-linked) series at lags 1 to
// max_lag, pooled within units (each series about its own mean, so that units with different
// shares, a master and its workers, do not pass for correlation).
template <typename Key>
std::vector<double> pooled_autocorrelations(const std::map<Key, std::vector<char>>& series, size_t max_lag) {
    std::vector<double> cross(max_lag + 1, 0);
    for (const auto& [key, xs] : series) {
        if (xs.size() < 2) continue;
        double mean = 0;
        for (char x : xs) mean += x;
        mean /= static_cast<double>(xs.size());
        for (size_t i = 0; i < xs.size(); ++i)
            for (size_t k = 0; k <= max_lag && i + k < xs.size(); ++k) cross[k] += (xs[i] - mean) * (xs[i + k] - mean);
    }
    std::vector<double> rho;
    if (cross[0] <= 0) return rho;
    for (size_t k = 1; k <= max_lag; ++k) rho.push_back(cross[k] / cross[0]);
    return rho;
}

template <typename Key>
SlowInflation variance_inflation(const std::map<Key, std::vector<char>>& series) {
    size_t rounds = 0;
    for (const auto& [key, xs] : series) rounds = std::max(rounds, xs.size());
    SlowInflation out;
    out.rho = pooled_autocorrelations(series, std::max<size_t>(1, rounds / kInflationLagsPer));
    if (out.rho.empty() || out.rho.front() <= 0) return out;
    const double rho = out.rho.front();
    out.markov = rho >= 1 ? kMaxInflation : std::min(kMaxInflation, (1 + rho) / (1 - rho));
    return out;
}

}  // namespace

// A window of w rounds from a stationary series counts w p (1-p) tau_w in variance, tau_w =
// 1 + 2 sum_k (1 - k/w) rho_k; the sum stops at the lags learnt. Never below the Markov chain's
// (1+rho_1)/(1-rho_1), the inflation of the rule before: long episodes (a rank waited for in most
// rounds for ten seconds now and then, by chance) add to it, never take from it.
double SlowInflation::of(int window) const {
    double tau = 1;
    for (size_t k = 1; k <= rho.size() && static_cast<int>(k) < window; ++k)
        tau += 2 * (1 - static_cast<double>(k) / window) * rho[k - 1];
    return std::min(kMaxInflation, std::max({1.0, markov, tau}));
}

SlowRankModel::SlowRankModel(SlowRankConfig config, std::map<int, std::string> rank_node)
    : config_(std::move(config)), rank_node_(std::move(rank_node)) {
    if (config_.windows.empty()) config_.windows = SlowRankConfig{}.windows;
    std::sort(config_.windows.begin(), config_.windows.end());
    config_.look_every = std::max(1, config_.look_every);
    verdict_.baseline_rounds = config_.baseline_rounds;
}

void SlowRankModel::set_node(int rank, const std::string& node) {
    auto [it, added] = rank_node_.emplace(rank, node);
    if (!added && it->second != node) {
        it->second = node;
        base_shares_.reset();  // counted by node too
    }
}

const std::string& SlowRankModel::node_of(int rank) const {
    static const std::string none;
    auto it = rank_node_.find(rank);
    return it == rank_node_.end() ? none : it->second;
}

bool SlowRankModel::in_unit(const Unit& u, int rank) const { return u.is_node ? node_of(rank) == u.node : u.rank == rank; }

const SlowRankModel::Share& SlowRankModel::Shares::of(const Unit& u) const {
    static const Share none;
    const bool starved = u.kind == SlowEvidence::cpu_starved;
    if (u.is_node) {
        const auto& shares = u.kind == SlowEvidence::slow_link ? node_link : starved ? node_starved : node;
        auto it = shares.find(u.node);
        return it == shares.end() ? none : it->second;
    }
    const auto& shares = starved ? rank_starved : u.kind == SlowEvidence::cpu_throttled ? rank_throttled : rank;
    auto it = shares.find(u.rank);
    return it == shares.end() ? none : it->second;
}

SlowRankModel::Round SlowRankModel::mark(const SlowRound& round) {
    Round out{round.at, {}, {}, round.node_link_ms, {}, round.output_bytes};
    if (round.node_link_ms.size() >= kLinkNodes) out.node_link = against_peers(round.node_link_ms);
    const int waiting = static_cast<int>(
        std::count_if(round.ranks.begin(), round.ranks.end(), [](const RankState& r) { return r.activity == Activity::in_mpi; }));
    const int others = static_cast<int>(round.ranks.size()) - 1;
    for (const auto& r : round.ranks) {
        const bool working = works(r.activity);
        // A working rank is not among the waiting, so `waiting` counts its peers only.
        Mark m{r.rank, working, r.activity == Activity::in_mpi, working && 2 * waiting > others};
        m.stopped = r.activity == Activity::stopped;
        m.throttled = r.throttled;
        m.moved = r.moved;
        m.on_cpu_known = r.stop_seconds > 0;
        m.on_cpu = m.on_cpu_known && r.stop_seconds < kOnCpuStopSeconds;
        if (!r.sched_known) {
            last_sched_.erase(r.rank);
        } else {
            auto last = last_sched_.find(r.rank);
            if (last != last_sched_.end() && r.run_ns >= last->second.run_ns && r.wait_ns >= last->second.wait_ns &&
                round.at > last->second.at) {
                m.run = static_cast<double>(r.run_ns - last->second.run_ns) / 1e9;
                m.wait = static_cast<double>(r.wait_ns - last->second.wait_ns) / 1e9;
                m.dt = round.at - last->second.at;
                m.timed = m.run + m.wait > 0 && m.run + m.wait >= kMinRunnable * (round.at - last->second.at);
            }
            last_sched_[r.rank] = {r.run_ns, r.wait_ns, round.at};
        }
        out.marks.push_back(m);
    }
    time_marks(&out);
    mark_throttling(&out);
    return out;
}

void SlowRankModel::mark_throttling(Round* round) {
    int known = 0, grew = 0;
    for (Mark& m : round->marks) {
        if (m.throttled < 0) continue;
        auto last = last_throttle_.find(m.rank);
        // A count that fell belongs to another cgroup: no reading to compare with.
        if (last != last_throttle_.end() && m.throttled >= last->second) {
            m.throttle_known = true;
            m.throttled_now = m.throttled > last->second;
            ++known;
            grew += m.throttled_now;
        }
        last_throttle_[m.rank] = m.throttled;
    }
    // Held back by a quota of its own: a quota on the job's whole cgroup throttles its ranks alike
    // (they read the same count), so a rank counts only while most of its peers read now were not.
    for (Mark& m : round->marks) {
        if (!m.throttle_known) continue;
        if (known < 2) m.throttle_known = m.throttled_now = false;
        else if (m.throttled_now && 2 * (grew - 1) >= known - 1) m.throttled_now = false;
    }
}

void SlowRankModel::time_marks(Round* round) const {
    std::map<int, double> ranks;
    std::map<std::string, std::pair<double, double>> nodes;  // wait, runnable
    for (const Mark& m : round->marks) {
        if (!m.timed) continue;
        ranks[m.rank] = m.wait / (m.run + m.wait);
        auto& [wait, runnable] = nodes[node_of(m.rank)];
        wait += m.wait;
        runnable += m.run + m.wait;
    }
    const std::map<int, double> rank_starve = against_peers(ranks);
    for (Mark& m : round->marks)
        if (auto it = rank_starve.find(m.rank); it != rank_starve.end()) {
            m.starve = it->second;
            m.starve_known = true;
        }
    std::map<std::string, double> node_shares;
    for (const auto& [node, times] : nodes) node_shares[node] = times.first / times.second;
    round->node_starve = against_peers(node_shares);
}

bool SlowRankModel::starved(const Round& round, const Unit& u, bool* seen) const {
    *seen = false;
    if (u.is_node) {
        auto value = round.node_starve.find(u.node);
        auto threshold = node_starve_threshold_.find(u.node);
        if (value == round.node_starve.end() || threshold == node_starve_threshold_.end()) return false;
        *seen = true;
        return value->second > threshold->second;
    }
    auto threshold = rank_starve_threshold_.find(u.rank);
    if (threshold == rank_starve_threshold_.end()) return false;
    for (const Mark& m : round.marks)
        if (m.rank == u.rank && m.starve_known) {
            *seen = true;
            return m.starve > threshold->second;
        }
    return false;
}

bool SlowRankModel::slow_linked(const Round& round, const std::string& node, bool* seen) const {
    *seen = false;
    auto value = round.node_link.find(node);
    auto threshold = node_link_threshold_.find(node);
    if (value == round.node_link.end() || threshold == node_link_threshold_.end()) return false;
    *seen = true;
    return value->second > threshold->second;
}

void SlowRankModel::learn_links() {
    std::map<std::string, std::vector<double>> nodes;
    for (const Round& round : baseline_)
        for (const auto& [node, value] : round.node_link) nodes[node].push_back(value);
    for (auto& [node, values] : nodes)
        if (auto t = baseline_threshold(values, kLinkMarginMs)) node_link_threshold_[node] = *t;
    std::map<std::string, std::vector<char>> series;
    for (const Round& round : baseline_)
        for (const auto& [node, value] : round.node_link) {
            bool seen = false;
            const bool marked = slow_linked(round, node, &seen);
            if (seen) series[node].push_back(marked);
        }
    node_link_inflation_ = variance_inflation(series);
}

double SlowRankModel::link_median(const Rounds& rounds, const std::string& node) const {
    std::vector<double> values;
    for (const Round* round : rounds)
        if (auto it = round->node_link_ms.find(node); it != round->node_link_ms.end()) values.push_back(it->second);
    return values.empty() ? 0 : median_of(values);
}

void SlowRankModel::learn_starvation() {
    std::map<int, std::vector<double>> ranks;
    std::map<std::string, std::vector<double>> nodes;
    for (const Round& round : baseline_) {
        for (const Mark& m : round.marks)
            if (m.starve_known) ranks[m.rank].push_back(m.starve);
        for (const auto& [node, value] : round.node_starve) nodes[node].push_back(value);
    }
    for (auto& [rank, values] : ranks)
        if (auto t = baseline_threshold(values, kStarveMargin)) rank_starve_threshold_[rank] = *t;
    for (auto& [node, values] : nodes)
        if (auto t = baseline_threshold(values, kStarveMargin)) node_starve_threshold_[node] = *t;
    std::map<int, std::vector<char>> rank_series;
    std::map<std::string, std::vector<char>> node_series;
    for (const Round& round : baseline_) {
        for (const Mark& m : round.marks)
            if (auto t = rank_starve_threshold_.find(m.rank); m.starve_known && t != rank_starve_threshold_.end())
                rank_series[m.rank].push_back(m.starve > t->second);
        for (const auto& [node, value] : round.node_starve)
            if (auto t = node_starve_threshold_.find(node); t != node_starve_threshold_.end())
                node_series[node].push_back(value > t->second);
    }
    rank_starve_inflation_ = variance_inflation(rank_series);
    node_starve_inflation_ = variance_inflation(node_series);
}

SlowRankModel::Shares SlowRankModel::shares(const Rounds& rounds) const {
    Shares out;
    for (const Round* round : rounds) count_round(*round, &out);
    return out;
}

// Counts are sums over rounds: the baseline's are kept from the look that first needs them (its rounds
// and the thresholds learnt from them stay as they are), and the recent windows, nested as they are
// (the last 32 rounds are among the last 64), are summed in one pass from the newest round back.
const SlowRankModel::Shares& SlowRankModel::baseline_shares() const {
    if (!base_shares_) base_shares_ = shares(baseline());
    return *base_shares_;
}

std::vector<SlowRankModel::Shares> SlowRankModel::recent_shares(const std::vector<int>& windows) const {
    std::vector<Shares> out;
    Shares sum;
    size_t counted = 0;
    for (int window : windows) {
        const size_t n = std::min(recent_.size(), static_cast<size_t>(window));
        for (; counted < n; ++counted) count_round(recent_[recent_.size() - 1 - counted], &sum);
        out.push_back(sum);
    }
    return out;
}

void SlowRankModel::count_round(const Round& round, Shares* shares) const {
    Shares& out = *shares;
    std::map<std::string, bool> nodes;  // seen in this round, and waited for
    for (const Mark& m : round.marks) {
        Share& s = out.rank[m.rank];
        ++s.seen;
        s.waited += m.waited_for;
        bool& node_waited = nodes[node_of(m.rank)];
        node_waited = node_waited || m.waited_for;
    }
    for (const auto& [node, waited] : nodes) {
        ++out.node[node].seen;
        out.node[node].waited += waited;
    }
    for (const Mark& m : round.marks) {
        auto threshold = rank_starve_threshold_.find(m.rank);
        if (!m.starve_known || threshold == rank_starve_threshold_.end()) continue;
        ++out.rank_starved[m.rank].seen;
        out.rank_starved[m.rank].waited += m.starve > threshold->second;
    }
    for (const Mark& m : round.marks) {
        if (!m.throttle_known) continue;
        ++out.rank_throttled[m.rank].seen;
        out.rank_throttled[m.rank].waited += m.throttled_now;
    }
    for (const auto& [node, value] : round.node_starve) {
        auto threshold = node_starve_threshold_.find(node);
        if (threshold == node_starve_threshold_.end()) continue;
        ++out.node_starved[node].seen;
        out.node_starved[node].waited += value > threshold->second;
    }
    for (const auto& [node, value] : round.node_link) {
        bool seen = false;
        const bool marked = slow_linked(round, node, &seen);
        if (!seen) continue;
        ++out.node_link[node].seen;
        out.node_link[node].waited += marked;
    }
}

SlowRankModel::Rounds SlowRankModel::baseline() const {
    Rounds out;
    for (const Round& r : baseline_) out.push_back(&r);
    return out;
}

SlowRankModel::Rounds SlowRankModel::since(double at) const {
    Rounds out;
    for (const Round& r : recent_)
        if (r.at >= at) out.push_back(&r);
    return out;
}

SlowRankModel::Rounds SlowRankModel::recent(int window) const {
    Rounds out;
    const size_t n = std::min(recent_.size(), static_cast<size_t>(window));
    for (size_t i = recent_.size() - n; i < recent_.size(); ++i) out.push_back(&recent_[i]);
    return out;
}

void SlowRankModel::learn_inflation() {
    std::map<int, std::vector<char>> ranks, throttled;
    std::map<std::string, std::vector<char>> nodes;
    for (const Round& round : baseline_) {
        std::map<std::string, char> here;
        for (const Mark& m : round.marks) {
            if (m.throttle_known) throttled[m.rank].push_back(m.throttled_now);
            ranks[m.rank].push_back(m.waited_for);
            char& node_waited = here[node_of(m.rank)];
            node_waited = node_waited || m.waited_for;
        }
        for (const auto& [node, waited] : here) nodes[node].push_back(waited);
    }
    rank_inflation_ = variance_inflation(ranks);
    node_inflation_ = variance_inflation(nodes);
    rank_throttle_inflation_ = variance_inflation(throttled);
}

bool SlowRankModel::observe(const SlowRound& round) {
    if (round.ranks.size() < 2) return false;  // no peers, no waiting for anyone
    if (round.at - last_at_ < config_.min_spacing_s) return false;  // faster than the verdict's scale
    last_at_ = round.at;
    ++rounds_;
    verdict_.rounds = rounds_;
    if (static_cast<int>(baseline_.size()) < config_.baseline_rounds) {
        baseline_.push_back(mark(round));
        if (static_cast<int>(baseline_.size()) == config_.baseline_rounds) {
            learn_inflation();
            learn_starvation();
            learn_links();
        }
        return false;
    }
    recent_.push_back(mark(round));
    // Kept twice the longest window: the change point is searched before the window that found it.
    while (recent_.size() > 2 * static_cast<size_t>(config_.windows.back())) recent_.pop_front();
    if ((rounds_ - config_.baseline_rounds) % config_.look_every != 0) return false;
    last_look_ = look();
    if (last_look_.status == SlowStatus::slow || verdict_.status != SlowStatus::slow) verdict_ = last_look_;
    return true;
}

std::vector<SlowRankModel::Finding> SlowRankModel::significant(const SlowVerdict& v, const Shares& base,
                                                               const std::vector<int>& windows,
                                                               double* smallest) const {
    std::vector<Unit> units;
    for (const auto& [rank, share] : base.rank) units.push_back({false, rank, node_of(rank)});
    if (base.node.size() >= 2)  // on one node, the node is waited for whenever anyone is
        for (const auto& [node, share] : base.node) units.push_back({true, -1, node});
    for (const auto& [rank, share] : base.rank_starved) units.push_back({false, rank, node_of(rank), SlowEvidence::cpu_starved});
    for (const auto& [node, share] : base.node_starved) units.push_back({true, -1, node, SlowEvidence::cpu_starved});
    for (const auto& [node, share] : base.node_link) units.push_back({true, -1, node, SlowEvidence::slow_link});
    for (const auto& [rank, share] : base.rank_throttled) units.push_back({false, rank, node_of(rank), SlowEvidence::cpu_throttled});
    std::map<size_t, Finding> best;
    const std::vector<Shares> recent = recent_shares(windows);
    for (size_t w = 0; w < windows.size(); ++w) {
        const int window = windows[w];
        const Shares& now = recent[w];
        for (size_t i = 0; i < units.size(); ++i) {
            const Share& before = base.of(units[i]);
            const Share& after = now.of(units[i]);
            if (after.value() <= before.value()) continue;  // one-sided: only more waiting counts
            const bool starve = units[i].kind == SlowEvidence::cpu_starved;
            const SlowInflation& inflation = units[i].kind == SlowEvidence::slow_link       ? node_link_inflation_
                                             : units[i].kind == SlowEvidence::cpu_throttled ? rank_throttle_inflation_
                                             : units[i].is_node ? (starve ? node_starve_inflation_ : node_inflation_)
                                                                : (starve ? rank_starve_inflation_ : rank_inflation_);
            // Each count by the inflation of its own length (rounds seen; readings, for throttling): the
            // baseline's longer sum of lags weighs more.
            const double k = inflation.of(after.seen), k0 = inflation.of(before.seen);
            const double p = fisher_greater(deflate(after.waited, k), deflate(after.seen, k), deflate(before.waited, k0),
                                            deflate(before.seen, k0));
            auto it = best.find(i);
            if (it == best.end() || p < it->second.p) best[i] = {units[i], before, after, window, p, 0};
        }
    }
    std::vector<Finding> out;
    for (auto& [i, f] : best) {
        if (smallest) *smallest = std::min(*smallest, f.p);
        if (f.p > v.threshold) continue;
        f.since = change_point(f);
        out.push_back(f);
    }
    return out;
}

double SlowRankModel::peers_waiting(const Rounds& rounds, const std::vector<int>& suspects, int* samples) const {
    int seen = 0, waiting = 0;
    for (const Round* round : rounds)
        for (const Mark& m : round->marks) {
            if (std::count(suspects.begin(), suspects.end(), m.rank)) continue;
            ++seen;
            waiting += m.waiting;
        }
    if (samples) *samples = seen;
    return seen ? static_cast<double>(waiting) / seen : 0;
}

std::map<int, SlowRankModel::ComputeRate> SlowRankModel::compute_rates(const Rounds& rounds) const {
    struct Sum {
        double run = 0, wall = 0;
        int computing = 0, running = 0;  // samples computing; samples not stopped
        int on_cpu_computing = 0, on_cpu_running = 0;  // the same of those taken on its CPU
    };
    std::map<int, Sum> sums;
    for (const Round* round : rounds)
        for (const Mark& m : round->marks) {
            Sum& s = sums[m.rank];
            if (m.dt > 0) s.run += m.run, s.wall += m.dt;
            if (m.stopped) continue;  // no CPU while stopped: what it did then is not what its CPU did
            ++s.running;
            s.computing += m.working;
            if (m.on_cpu) ++s.on_cpu_running, s.on_cpu_computing += m.working;
        }
    std::map<int, ComputeRate> out;
    for (const auto& [rank, s] : sums)
        if (s.wall >= kMinCpuEvidenceSeconds && s.running > 0) {
            const double cpu = s.run / s.wall;
            ComputeRate& r = out[rank];
            r = {cpu * s.computing / s.running, cpu / (s.running + 1), s.computing};
            if (s.on_cpu_running > 0) {
                r.on_cpu_rate = cpu * s.on_cpu_computing / s.on_cpu_running;
                r.on_cpu_floor = cpu / (s.on_cpu_running + 1);
                r.on_cpu_running = s.on_cpu_running, r.on_cpu_computing = s.on_cpu_computing;
            }
        }
    return out;
}

// The job's slowdown, reported: a rank gets through its compute work at its CPU time per second
// times the share of that time it computes (its samples), whatever holds it up; each step's work
// is fixed, so every rank's rate goes as the job's steps per second, and the job factor is the
// median over the ranks timed in both periods of the rate at baseline over the rate since (a
// median: a rank asleep in I/O computes little and is no measure of the job's pace).
// The estimate returned, which decides whether the job is slower at all, is the older one that
// the false-alarm evidence was gathered with: in a bulk-synchronous step the peers compute c and
// wait for the slowest, so the job factor is their working share at baseline over the share now
// (low where the peers gained CPU; decision-rule.md §5).
SlowRankModel::JobEstimate SlowRankModel::estimate_job_factor(const Rounds& now, SlowVerdict* v) const {
    const Rounds base = baseline();
    JobEstimate out;
    out.by_waiting = waiting_factor(now, v->slow_ranks);
    v->job_factor = out.by_waiting;
    const std::map<int, ComputeRate> rates0 = compute_rates(base), rates1 = compute_rates(now);
    std::vector<double> ratios;
    double before = 0, after = 0, on_cpu_before = 0, on_cpu_after = 0;
    int computing = 0, founded = 0, on_cpu_computing = 0, on_cpu_computing_now = 0;
    for (const auto& [rank, rate] : rates1) {
        auto it = rates0.find(rank);
        if (it == rates0.end() || it->second.rate <= 0) continue;
        before += it->second.rate, after += rate.rate;
        on_cpu_before += it->second.on_cpu_rate, on_cpu_after += rate.on_cpu_rate;
        computing += it->second.computing;
        founded += it->second.computing >= kMinComputingSamples;
        on_cpu_computing += it->second.on_cpu_computing, on_cpu_computing_now += rate.on_cpu_computing;
        // A rank never seen computing since: one computing sample more (as for the peers in waiting_factor).
        ratios.push_back(it->second.rate / std::max(rate.rate, rate.floor));
    }
    out.rates_well_founded = founded >= 2;
    if (ratios.size() >= 2) {
        out.by_rates = median_of(ratios);
        v->compute_rate_before = before, v->compute_rate_now = after;
        v->job_factor = out.by_rates;
        v->job_factor_from = "compute_rates";
        v->computing_samples_before = computing;
        // A sample is taken at a random moment of wall time, and a rank that shares its CPU is off it
        // much of that time, seen where it gave the CPU up: its samples' computing share is not its CPU
        // time's, and the two move apart when a quota or a neighbour takes CPU from the job (LAMMPS under
        // a quota: all samples said 1.48x of a job 2.46x slower). The samples taken on the CPU say what
        // the CPU time does. They are fewer, and a slowed job computes in fewer still, so they are used
        // once the ranks' summed on-CPU computing samples reach kMinComputingSamples in both periods, as
        // the ratio of the summed rates (a median of per-rank ratios of a few samples each runs high).
        if (on_cpu_computing >= kMinComputingSamples && on_cpu_computing_now >= kMinComputingSamples &&
            on_cpu_after > 0) {
            v->compute_rate_before = on_cpu_before, v->compute_rate_now = on_cpu_after;
            v->job_factor = on_cpu_before / on_cpu_after;
            v->job_factor_from = "on_cpu_compute_rates";
            v->computing_samples_before = on_cpu_computing;
        }
    }
    if (!peers_cpu_share(base, v->slow_ranks, &v->peers_cpu_before) ||
        !peers_cpu_share(now, v->slow_ranks, &v->peers_cpu_now))
        v->peers_cpu_before = v->peers_cpu_now = 0;
    return out;
}

double SlowRankModel::waiting_factor(const Rounds& now, const std::vector<int>& suspects) const {
    int samples = 0;
    const double working0 = 1 - peers_waiting(baseline(), suspects);
    // Peers never seen working since the change: the job all but stands still, slower than any
    // sample can say; it is given the bound of one working sample more.
    const double waiting1 = peers_waiting(now, suspects, &samples);
    const double working1 = std::max(1 - waiting1, 1.0 / (samples + 1));
    return working0 / working1;
}

bool SlowRankModel::output_rate(const Rounds& rounds, double* rate) const {
    std::vector<std::pair<double, int64_t>> readings;  // (when, bytes written so far)
    for (const Round* round : rounds)
        if (round->output_bytes >= 0) readings.emplace_back(round->at, round->output_bytes);
    int growths = 0;
    for (size_t i = 1; i < readings.size(); ++i) growths += readings[i].second > readings[i - 1].second;
    if (growths < kMinOutputGrowths) return false;
    // Bytes a second between the first and the last reading within [from, to].
    auto rate_between = [&](double from, double to) {
        const std::pair<double, int64_t>* first = nullptr;
        const std::pair<double, int64_t>* last = nullptr;
        for (const auto& r : readings) {
            if (r.first < from || r.first > to) continue;
            if (!first) first = &r;
            last = &r;
        }
        if (!first || last->first <= first->first || last->second < first->second) return 0.0;
        return static_cast<double>(last->second - first->second) / (last->first - first->first);
    };
    const double from = readings.front().first, to = readings.back().first, middle = (from + to) / 2;
    const double first_half = rate_between(from, middle), second_half = rate_between(middle, to);
    if (first_half <= 0 || second_half <= 0 ||
        std::max(first_half, second_half) > kOutputSteadiness * std::min(first_half, second_half))
        return false;
    *rate = rate_between(from, to);
    return *rate > 0;
}

bool SlowRankModel::peers_cpu_share(const Rounds& rounds, const std::vector<int>& suspects, double* share) const {
    double run = 0, runnable = 0;
    for (const Round* round : rounds)
        for (const Mark& m : round->marks) {
            if (!m.timed || std::count(suspects.begin(), suspects.end(), m.rank)) continue;
            run += m.run;
            runnable += m.run + m.wait;
        }
    if (runnable < kMinCpuEvidenceSeconds) return false;
    *share = run / runnable;
    return true;
}

// In a bulk-synchronous step the peers compute c and then wait for the
// slowest; their working share is c / T. So the suspects' compute time
// against the peers' is (their working share) / (1 - peers' waiting share),
// and the factor is that ratio since the change over the same ratio at
// baseline: a built-in imbalance cancels out.
double SlowRankModel::compute_factor(const Finding& f, const std::vector<int>& suspects) const {
    if (f.unit.kind == SlowEvidence::slow_link) {  // how many times longer its round trips are than at baseline
        const double before = link_median(baseline(), f.unit.node);
        return before > 0 ? link_median(since(f.since), f.unit.node) / before : 0;
    }
    // Its quota's cost is the job's: a rank held to about the CPU share it had anyway, in bursts, holds
    // its busy-polling peers up without getting less CPU than they (decision-rule.md §5).
    if (f.unit.kind == SlowEvidence::cpu_throttled) return waiting_factor(since(f.since), suspects);
    if (f.unit.kind == SlowEvidence::cpu_starved) {  // the CPU its peers get of their runnable time, against its own
        auto ratio = [&](const Rounds& rounds) {
            double own = 0, peers = 0;
            cpu_shares(rounds, f.unit, &own, &peers);
            return own > 0 ? peers / own : 0.0;
        };
        const double before = ratio(baseline());
        return before > 0 ? ratio(since(f.since)) / before : 0;
    }
    auto ratio = [&](const Rounds& rounds) {
        int seen = 0, working = 0;
        for (const Round* round : rounds)
            for (const Mark& m : round->marks)
                if (in_unit(f.unit, m.rank)) {
                    ++seen;
                    working += m.working;
                }
        int samples = 0;
        const double waiting = peers_waiting(rounds, suspects, &samples);
        if (seen == 0 || samples == 0) return 0.0;
        // Peers never seen working: as for the job factor, the bound of one working sample more.
        return static_cast<double>(working) / seen / std::max(1 - waiting, 1.0 / (samples + 1));
    };
    const double before = ratio(baseline());
    const double after = ratio(since(f.since));
    return before > 0 ? after / before : 0;
}

double SlowRankModel::peers_still(const Rounds& rounds, const std::vector<int>& suspects, double* now) const {
    *now = 0;
    if (rounds.empty()) return 0;
    double longest = 0, last_move = rounds.front()->at;
    for (const Round* round : rounds) {
        const bool moved = std::any_of(round->marks.begin(), round->marks.end(), [&](const Mark& m) {
            return m.moved && !std::count(suspects.begin(), suspects.end(), m.rank);
        });
        if (!moved) continue;
        longest = std::max(longest, round->at - last_move);
        last_move = round->at;
    }
    *now = rounds.back()->at - last_move;
    return std::max(longest, *now);
}

bool SlowRankModel::stopped_alone(int rank, const Rounds& rounds) const {
    auto share = [&](const Rounds& among) {
        int seen = 0, stopped = 0;
        for (const Round* round : among)
            for (const Mark& m : round->marks)
                if (m.rank == rank) ++seen, stopped += m.stopped;
        return seen ? static_cast<double>(stopped) / seen : 0.0;
    };
    const double now = share(rounds);
    return now >= kStoppedAlone && now > 2 * share(baseline());
}

bool SlowRankModel::never_throttled(int rank, const Rounds& rounds) const {
    int64_t first = -1, last = -1;
    int known = 0;
    for (const Round* round : rounds)
        for (const Mark& m : round->marks) {
            if (m.rank != rank || m.throttled < 0) continue;
            if (last >= 0 && m.throttled < last) return false;  // another cgroup: unknown
            if (first < 0) first = m.throttled;
            last = m.throttled;
            ++known;
        }
    return known >= 2 && last == first;
}

void SlowRankModel::cpu_shares(const Rounds& rounds, const Unit& u, double* own, double* peers,
                               double* peers_per_own) const {
    double own_run = 0, own_runnable = 0, peers_run = 0, peers_runnable = 0;
    for (const Round* round : rounds)
        for (const Mark& m : round->marks) {
            if (!m.timed) continue;
            const bool mine = in_unit(u, m.rank);
            (mine ? own_run : peers_run) += m.run;
            (mine ? own_runnable : peers_runnable) += m.run + m.wait;
        }
    *own = own_runnable > 0 ? own_run / own_runnable : 0;
    *peers = peers_runnable > 0 ? peers_run / peers_runnable : 0;
    if (peers_per_own) *peers_per_own = own_runnable > 0 ? peers_runnable / own_runnable : 0;
}

// The start of the suffix of stored rounds with the largest excess of
// waited-for rounds over the midpoint of the two shares (CUSUM's estimate).
double SlowRankModel::change_point(const Finding& f) const {
    const double mid = (f.before.value() + f.after.value()) / 2;
    double sum = 0, lowest = 0;
    double since = recent_.empty() ? 0 : recent_.front().at;
    for (size_t i = 0; i < recent_.size(); ++i) {
        bool seen = false, waited = false;
        if (f.unit.kind == SlowEvidence::cpu_starved) {
            waited = starved(recent_[i], f.unit, &seen);
        } else if (f.unit.kind == SlowEvidence::slow_link) {
            waited = slow_linked(recent_[i], f.unit.node, &seen);
        } else if (f.unit.kind == SlowEvidence::cpu_throttled) {
            for (const Mark& m : recent_[i].marks)
                if (m.rank == f.unit.rank && m.throttle_known) seen = true, waited = m.throttled_now;
        } else {
            for (const Mark& m : recent_[i].marks)
                if (in_unit(f.unit, m.rank)) {
                    seen = true;
                    waited = waited || m.waited_for;
                }
        }
        if (!seen) continue;
        sum += (waited ? 1.0 : 0.0) - mid;
        if (sum < lowest) {
            lowest = sum;
            since = i + 1 < recent_.size() ? recent_[i + 1].at : recent_[i].at;
        }
    }
    return since;
}

SlowVerdict SlowRankModel::look() const {
    SlowVerdict v;
    v.rounds = rounds_;
    v.baseline_rounds = config_.baseline_rounds;
    std::vector<int> windows;
    for (int w : config_.windows)
        if (static_cast<size_t>(w) <= recent_.size() &&
            recent_.back().at - recent_[recent_.size() - w].at >= config_.min_window_s)
            windows.push_back(w);
    if (windows.empty()) return v;  // learning
    Shares base = baseline_shares();
    for (auto it = base.rank_throttled.begin(); it != base.rank_throttled.end();)  // too few readings: not tested
        it = it->second.seen < kThrottleBaselineReadings ? base.rank_throttled.erase(it) : std::next(it);
    const size_t units = base.rank.size() + (base.node.size() >= 2 ? base.node.size() : 0) + base.rank_starved.size() +
                         base.node_starved.size() + base.node_link.size() + base.rank_throttled.size();
    v.tests = static_cast<int>(units * windows.size());
    v.threshold = config_.alpha / v.tests;
    v.status = SlowStatus::no_slow;
    double smallest = 1;
    std::vector<Finding> found = significant(v, base, windows, &smallest);
    v.p_value = std::min(1.0, smallest * v.tests);  // how near a no_slow look came
    if (found.empty()) return v;

    std::vector<int> suspects;  // every rank of a significant unit: not a peer
    for (const auto& f : found)
        for (const auto& [rank, node] : base.rank)
            if (in_unit(f.unit, rank) && !std::count(suspects.begin(), suspects.end(), rank)) suspects.push_back(rank);
    std::vector<SlowUnit> ranks, nodes, links;
    const Finding* strongest = nullptr;
    std::string contended;  // a starved rank held back: its whole node lost CPU
    // The first significant unit left out under a bar for naming, and why: said in the look, so
    // that a miss can be read in the log.
    std::string under_bar;
    const auto leave_out = [&](const Finding& f, const char* why) {
        if (!under_bar.empty()) return;
        const std::string who = f.unit.is_node ? "node " + f.unit.node : "rank " + std::to_string(f.unit.rank);
        char p[32];
        std::snprintf(p, sizeof p, " (p %.2g), but ", f.p);
        under_bar = who + ' ' + to_string(f.unit.kind) + p + why;
    };
    for (const auto& f : found) {
        const double factor = compute_factor(f, suspects);
        if (factor < config_.min_factor) {
            char why[96];
            std::snprintf(why, sizeof why, "its factor %.2f is under %.2g", factor, config_.min_factor);
            leave_out(f, why);
            continue;
        }
        if (f.unit.kind == SlowEvidence::waited_for) {
            double now = 0;
            const double still = peers_still(recent(f.window), suspects, &now);
            if (still >= kPeersStillSeconds || now >= kPeersStillNowSeconds) {
                char why[128];
                std::snprintf(why, sizeof why, "its peers stood still for %.0f s%s: a phase of the code's own or a hang, "
                              "not a slow rank", still, still >= kPeersStillSeconds ? "" : " (until now)");
                leave_out(f, why);
                continue;
            }
        }
        if (f.unit.kind == SlowEvidence::cpu_starved) {
            // Starved against its baseline is not enough: it must get less CPU than its peers now
            // (a rank that had more than its peers and now has as much is no sick node), and less
            // than it got itself at baseline (a rank whose peers gained CPU, as when a stopped
            // rank beside it leaves its core free, has lost nothing: seen on a 6-rank job with
            // two ranks stopped and continued, rank 0 at 34 % of its runnable time then as before,
            // its peers up to 40 %).
            double own = 0, peers = 0, own0 = 0, peers0 = 0, peers_per_own = 0;
            cpu_shares(since(f.since), f.unit, &own, &peers, &peers_per_own);
            cpu_shares(baseline(), f.unit, &own0, &peers0);
            if (own <= 0 || peers / own < config_.min_factor || own0 / own < config_.min_factor) {
                char why[128];
                std::snprintf(why, sizeof why, "it ran %.0f %% of its runnable time, its peers %.0f %%, itself at "
                              "baseline %.0f %%", 100 * own, 100 * peers, 100 * own0);
                leave_out(f, why);
                continue;
            }
            // On one node, its peers having lost much of what it lost, the node is contended (an
            // outside load, every rank served less, some a little less than others) and the worst
            // served of its ranks is no sick rank: seen beside a parallel build, a 4-rank CP2K run
            // with one rank at 6 % of its runnable time and its peers at 11 % (about 50 % at
            // baseline), named ~8x, and QE at 20 % against 28 %, named ~3.4x. A rank that alone
            // lost CPU (a quota, a process on its core) leaves its peers as they were or better.
            // Several nodes test their nodes against each other instead.
            const double peers_lost = peers > 0 ? peers0 / peers : 0;
            if (base.node.size() < 2 && peers_lost >= kNodeContended && peers_lost * peers_lost >= own0 / own) {
                char text[160];
                std::snprintf(text, sizeof text, "rank %d starved of CPU, but so are its peers (%.0f %% of their runnable "
                              "time, against %.0f %% at baseline): the node is contended", f.unit.rank, 100 * peers,
                              100 * peers0);
                if (contended.empty()) contended = text;
                continue;
            }
            // On one node, its peers having gained what it lost, and no CPU quota having held it
            // back: the job's own ranks outnumber the CPUs they may run on and the kernel's placement
            // serves one of them less (three ranks on one of two CPUs, one alone on the other) --
            // no sick node, nothing a drain would mend. Seen on balanced 4-rank runs on 2 CPUs: a
            // rank at 17 % of its runnable time for over a minute, its peers at 61 % (50 % at
            // baseline). A quota shows in its throttle count; a process beside it (a hog) takes
            // CPU from the job, so its peers gain nothing. Unknown throttling names the rank, and so
            // does a rank seen stopped on its own (stopped and continued: CP2K 3.2x slower, its peers
            // at 51 % of their runnable time against 45 %, held back to the end): no placement stops it.
            // What the peers gained, in CPU time per second the rank was runnable, against what it lost.
            const double peers_gain = (peers - peers0) * peers_per_own;
            if (base.node.size() < 2 && peers0 > 0 &&
                (peers >= kPeersGained * peers0 || peers_gain >= kPeersGainedOfLoss * (own0 - own)) &&
                never_throttled(f.unit.rank, since(f.since)) && !stopped_alone(f.unit.rank, since(f.since))) {
                char text[200];
                std::snprintf(text, sizeof text, "rank %d starved of CPU, but its peers gained what it lost (%.0f %% of "
                              "their runnable time, against %.0f %% at baseline) and no CPU quota held it back: the "
                              "job's ranks share the node's CPUs unevenly", f.unit.rank, 100 * peers, 100 * peers0);
                if (contended.empty()) contended = text;
                continue;
            }
        }
        SlowUnit u{f.unit.node, {}, f.unit.is_node, f.unit.kind, f.before.value(), f.after.value(), f.window, f.p,
                   factor, 0, 0, f.since};
        if (f.unit.kind == SlowEvidence::cpu_starved) cpu_shares(since(f.since), f.unit, &u.cpu_share, &u.peers_cpu_share);
        if (!f.unit.is_node) u.ranks.push_back(f.unit.rank);
        if (f.unit.kind == SlowEvidence::slow_link) {  // a node's own evidence: named with all its ranks
            u.link_ms = link_median(since(f.since), f.unit.node);
            u.baseline_link_ms = link_median(baseline(), f.unit.node);
            for (const auto& [rank, share] : base.rank)
                if (node_of(rank) == f.unit.node) u.ranks.push_back(rank);
            links.push_back(u);
            if (!strongest || f.p < strongest->p) strongest = &f;
            continue;
        }
        // A unit found by both evidences is named once, by the stronger.
        std::vector<SlowUnit>& same_kind = f.unit.is_node ? nodes : ranks;
        auto twin = std::find_if(same_kind.begin(), same_kind.end(), [&](const SlowUnit& other) {
            return other.node == u.node && other.ranks == u.ranks;
        });
        if (twin == same_kind.end()) same_kind.push_back(u);
        else if (u.p_value < twin->p_value) *twin = u;
        if (!strongest || f.p < strongest->p) strongest = &f;
    }
    // A node is named when more than half of its ranks are slow themselves;
    // one slow rank among healthy ones is named alone.
    const auto ranks_on = [&](const std::string& n) {
        int on_node = 0;
        for (const auto& [rank, share] : base.rank) on_node += node_of(rank) == n;
        return on_node;
    };
    for (SlowUnit& node : nodes) {
        for (const SlowUnit& r : ranks)
            if (r.node == node.node) node.ranks.push_back(r.ranks.front());
        if (2 * static_cast<int>(node.ranks.size()) <= ranks_on(node.node)) continue;
        v.units.push_back(node);
        v.slow_nodes.push_back(node.node);
    }
    // The node's own test is weaker than its ranks' (it is waited for when any
    // of its ranks is, slow or not): when more than half of a node's ranks are
    // named but the node's test has not yet decided, the node is named through
    // them, with its strongest rank's evidence (on several nodes only).
    if (base.node.size() >= 2) {
        for (const SlowUnit& r : ranks) {
            if (r.node.empty() || std::count(v.slow_nodes.begin(), v.slow_nodes.end(), r.node)) continue;
            SlowUnit node = r;
            node.is_node = true;
            node.ranks.clear();
            for (const SlowUnit& other : ranks) {
                if (other.node != r.node) continue;
                node.ranks.push_back(other.ranks.front());
                node.since = std::min(node.since, other.since);
                node.compute_factor = std::min(node.compute_factor, other.compute_factor);
                if (other.p_value < node.p_value) {
                    node.p_value = other.p_value, node.window = other.window;
                    node.baseline_share = other.baseline_share, node.recent_share = other.recent_share;
                }
            }
            if (2 * static_cast<int>(node.ranks.size()) <= ranks_on(r.node)) continue;
            std::sort(node.ranks.begin(), node.ranks.end());
            v.units.insert(v.units.begin() + static_cast<long>(v.slow_nodes.size()), node);  // nodes first
            v.slow_nodes.push_back(node.node);
        }
    }
    // A node whose link is slow: named as such, first, unless another evidence names it already (a
    // rank starved of CPU answers its peers late too, and its round trips grow with it).
    for (SlowUnit& link : links) {
        if (std::count(v.slow_nodes.begin(), v.slow_nodes.end(), link.node) ||
            std::any_of(ranks.begin(), ranks.end(), [&](const SlowUnit& r) { return r.node == link.node; }))
            continue;
        v.units.insert(v.units.begin(), link);
        v.slow_nodes.push_back(link.node);
    }
    for (const SlowUnit& r : ranks)
        if (!std::count(v.slow_nodes.begin(), v.slow_nodes.end(), r.node)) v.units.push_back(r);
    if (v.units.empty()) {
        if (!contended.empty()) v.held_back = "held back: " + contended;
        else if (!under_bar.empty()) v.held_back = "held back: " + under_bar;
        return v;
    }

    v.status = SlowStatus::slow;
    std::set<int> slow;
    v.since = v.units.front().since;
    for (const SlowUnit& u : v.units) {
        slow.insert(u.ranks.begin(), u.ranks.end());
        v.since = std::min(v.since, u.since);
    }
    v.slow_ranks.assign(slow.begin(), slow.end());
    v.p_value = std::min(1.0, strongest->p * v.tests);
    const JobEstimate estimate = estimate_job_factor(since(strongest->since), &v);
    double job_factor = estimate.by_waiting;
    const bool rates_well_founded = estimate.rates_well_founded;
    const bool from_rates = v.compute_rate_before > 0;
    if (strongest->unit.kind == SlowEvidence::cpu_starved) {
        // A job goes at its slowest rank's pace: the starved unit's share of CPU now against its
        // own at baseline (an upper bound where it had slack), or the peers' waiting where that
        // says more (a rank stopped and continued waits on the run queue too, yet mostly holds its
        // peers up by its stops). Reported only where the compute rates are unknown.
        double own0 = 0, own1 = 0, peers = 0;
        cpu_shares(baseline(), strongest->unit, &own0, &peers);
        cpu_shares(since(strongest->since), strongest->unit, &own1, &peers);
        const double by_share = own1 > 0 ? own0 / own1 : 0;
        if (own1 > 0) job_factor = std::max({1.0, by_share, job_factor});
        // Where the rates rest on a handful of computing samples (a code nearly always inside MPI, whose
        // pace is its exchanges', each waiting for the starved rank's next turn on its CPU), the starved
        // rank's own CPU share says more: with no slack, the job goes as much slower as it gets less.
        // Reported only: every decision below reads the same estimates as before.
        if (!from_rates || !rates_well_founded) {
            v.job_factor_from = own1 > 0 && job_factor == by_share ? "cpu_share" : "peers_waiting";
            v.job_factor = job_factor;
        }
    }
    // A throttled rank: its quota's throttle count is the kernel's own word that it was held back, and
    // the ranks' compute rates, read from samples that peers computing inside MPI calls mislead (NWChem's
    // one-sided ones), neither hold it back nor report a job faster than the peers' waiting says.
    if (strongest->unit.kind == SlowEvidence::cpu_throttled && job_factor > v.job_factor) {
        v.job_factor = job_factor;
        v.job_factor_from = "peers_waiting";
    }
    // A rank its peers wait for more, in a job that is not slower, is no sick node: the job moved
    // into a phase with less waiting overall and one rank now ends its steps last (seen on a
    // balanced random-access code, ~0.21x). Nothing to act on; the look says what it held back.
    // A link whose round trips grew says nothing of the job by itself (a link at 20 Mbit/s took 10-40x
    // as long per round trip while the job went 1.05x slower, estimated 0.82x): named alone, it must
    // come with a job measurably slower, by the factor reported (min_factor).
    const bool only_links = std::all_of(v.units.begin(), v.units.end(),
                                        [](const SlowUnit& u) { return u.evidence == SlowEvidence::slow_link; });
    // These two holds read the rates from all samples (or the peers' waiting where the rates are
    // unknown), as when the false-alarm evidence was gathered, not the on-CPU estimate reported.
    const double held_by = estimate.by_rates > 0 ? estimate.by_rates : estimate.by_waiting;
    const bool link_alone_unproven = only_links && held_by < config_.min_factor;
    // Waited for more, yet by the ranks' compute rates the job is faster: a later phase of the code
    // in which one rank ends its steps last, no sick node (a quiet HPCC run, rank 2 waited for in 22 %
    // of 64 rounds against 1 % at baseline, its job estimated 0.46x). Not a throttled rank (above).
    const bool rates_say_faster =
        strongest->unit.kind == SlowEvidence::waited_for && from_rates && held_by < config_.min_job_factor;
    const bool job_not_slower = job_factor < config_.min_job_factor;
    if (job_not_slower || link_alone_unproven || rates_say_faster) {
        SlowVerdict held;
        held.status = SlowStatus::no_slow;
        held.rounds = v.rounds, held.baseline_rounds = v.baseline_rounds, held.tests = v.tests;
        held.threshold = v.threshold, held.p_value = v.p_value;
        v.job_factor = job_not_slower ? job_factor : held_by;  // the estimate that decided
        held.held_back = "held back: " + slow_units_summary(v) + " (the job is not slower)";
        return held;
    }
    // The peers' waiting assumes their CPU did not change; where it did, their compute took that much
    // less or more time (a rank stopped and continued leaves its core to them: CP2K's peers from 45 %
    // to 51 % of their runnable time, the job 3.18x slower, estimated 3.48x, corrected 3.08x).
    // Reported only: the decisions above read the uncorrected estimate.
    if (v.job_factor_from == "peers_waiting" && v.peers_cpu_before > 0 && v.peers_cpu_now > 0)
        v.job_factor *= v.peers_cpu_before / v.peers_cpu_now;
    // Where the job writes at a steady rate (a line or a block per step), that rate is its pace, and
    // the job factor is the rate at baseline over the rate since: no model of how the fault slows it
    // (CP2K under a 40 % quota went 3.3x slower by its steps, 1.73x by its peers' waiting). Reported only.
    double output_before = 0, output_now = 0;
    if (output_rate(baseline(), &output_before) && output_rate(since(strongest->since), &output_now)) {
        v.job_factor = output_before / output_now;
        v.job_factor_from = "output_rate";
        v.output_rate_before = output_before, v.output_rate_now = output_now;
    }
    return v;
}

}  // namespace jobsentry
