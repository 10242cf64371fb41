// Per-rank evidence (rank_stillness.h) and the verification of its alarms
// (judge_still_verification): polling peers, stopped/asleep/spinning ranks,
// suspended jobs, the "outlast the longest healthy run" bar.
#include "catch_compat.hpp"

#include <algorithm>
#include <cmath>

#include "hang/model/progress.h"
#include "hang/model/rank_stillness.h"

using namespace jobsentry;

namespace {

// One round of 4 ranks at time t: ranks in `still` stand still with `kind`,
// the others poll inside MPI.
std::vector<RankRoundSample> round_of(double t, const std::vector<int>& still = {},
                                      StillKind kind = StillKind::frozen) {
    std::vector<RankRoundSample> r;
    for (int rank = 0; rank < 4; ++rank) {
        bool is_still = std::count(still.begin(), still.end(), rank) > 0;
        r.push_back({rank, is_still ? kind : StillKind::none, !is_still, t});
    }
    return r;
}

// Rounds every 0.4 s from t until the first alarm (significant and
// outlasted) of `rank`; returns the number of rounds it took, or -1.
int rounds_to_alarm(RankStillnessModel& m, double& t, int rank, StillKind kind, int limit = 200) {
    for (int i = 1; i <= limit; ++i) {
        t += 0.4;
        for (const auto& a : m.observe(round_of(t, {rank}, kind), 4))
            if (a.rank == rank && a.significant && a.outlasted) return i;
    }
    return -1;
}

// spinning: its main thread used CPU time in the window (else it is frozen).
RankVerification check(int rank, bool changed, bool in_mpi_any, bool stopped = false, bool spinning = false) {
    RankVerification v;
    v.cpu_ticks_used = v.main_cpu_ticks_used = spinning ? 50 : 0;
    v.main_ran = spinning;
    v.rank = rank;
    v.sampled = true;
    v.signature_changed = changed;
    v.in_mpi_any = in_mpi_any;
    v.in_mpi = in_mpi_any;
    v.stopped = stopped;
    return v;
}

}  // namespace

TEST_CASE("still kinds: stopped and idle are frozen, an unchanged chain with CPU spins, MPI is waiting") {
    CHECK(still_kind(Activity::stopped, true) == StillKind::frozen);
    CHECK(still_kind(Activity::idle_outside, false) == StillKind::frozen);
    CHECK(still_kind(Activity::computing, false) == StillKind::spinning);
    CHECK(still_kind(Activity::computing, true) == StillKind::none);
    CHECK(still_kind(Activity::in_mpi, false) == StillKind::none);
    CHECK(still_kind(Activity::threads_working, false) == StillKind::none);
}

TEST_CASE("no judgement while learning (fewer than 11 rank-samples)") {
    RankStillnessModel m;
    double t = 0;
    auto alarms = m.observe(round_of(t, {2}), 4);
    REQUIRE(alarms.size() == 1);
    CHECK(alarms[0].q == 1);
    CHECK_FALSE(alarms[0].significant);
}

TEST_CASE("a rank frozen while its peers poll is found in a few samples once the history is long") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);  // 120 healthy rank-samples
    REQUIRE(m.history_size() == 120);
    CHECK(m.q(StillKind::frozen) == Approx(0.05));  // nothing still seen: the margin d alone
    // 4 · 0.05^k <= 0.001 needs k = 3.
    CHECK(rounds_to_alarm(m, t, 2, StillKind::frozen) == 3);
}

TEST_CASE("Bonferroni: more monitored ranks need a longer run") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);
    auto alarms = m.observe(round_of(t += 0.4, {1}), 4);
    auto alarms64 = m.observe(round_of(t += 0.4, {1}), 64);
    REQUIRE(alarms.size() == 1);
    REQUIRE(alarms64.size() == 1);
    CHECK(alarms[0].probability == Approx(4 * 0.05));
    CHECK(alarms64[0].probability == Approx(std::min(1.0, 64 * 0.05 * 0.05)));
}

TEST_CASE("a healthy still run raises the bar: the next one must last twice as long") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);
    // A healthy 10-sample spinning phase of rank 0 (a long compute in one function).
    const int first = rounds_to_alarm(m, t, 0, StillKind::spinning, 10);
    CHECK(first > 0);  // first occurrence: the statistics flag it (verification must clear it)
    for (int i = 0; i < 10; ++i) m.observe(round_of(t += 0.4, {0}, StillKind::spinning), 4);
    m.cleared(0);
    m.observe(round_of(t += 0.4), 4);
    const double longest = m.longest_healthy(StillKind::spinning);
    CHECK(longest > 3.0);
    // Now a spinning run is judged only once it lasts 2 × longest.
    double start = t;
    const int rounds = rounds_to_alarm(m, t, 3, StillKind::spinning);
    REQUIRE(rounds > 0);
    CHECK(t - start >= 2 * longest);
    // Frozen runs keep their own (empty) history of healthy runs.
    CHECK(m.longest_healthy(StillKind::frozen) == 0);
}

TEST_CASE("the current run stays out of the history until it ends") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);
    const uint64_t before = m.history_size();
    for (int i = 0; i < 50; ++i) m.observe(round_of(t += 0.4, {2}), 4);
    CHECK(m.history_size() == before + 50 * 3);  // only the three moving ranks
    CHECK(m.q(StillKind::frozen) == Approx(0.05));
    m.observe(round_of(t += 0.4), 4);  // rank 2 moves: its run is healthy after all
    CHECK(m.history_size() == before + 50 * 4 + 4);
    CHECK(m.q(StillKind::frozen) > 0.05);
}

TEST_CASE("a suspended job (every rank stopped) drops every run") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);
    m.observe(round_of(t += 0.4, {1}), 4);
    CHECK(m.in_run(1));
    m.suspended();
    CHECK_FALSE(m.any_run());
}

TEST_CASE("postpone: a run not confirmed is judged again once it lasted twice as long") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);
    REQUIRE(rounds_to_alarm(m, t, 1, StillKind::frozen) > 0);
    auto before = m.observe(round_of(t += 0.4, {1}), 4);
    m.postpone(1);
    auto after = m.observe(round_of(t += 0.4, {1}), 4);
    REQUIRE(after.size() == 1);
    CHECK_FALSE(after[0].outlasted);
    CHECK(after[0].bar == Approx(2 * before[0].duration));
}

TEST_CASE("still verification: a stopped rank while the others poll is a hang, that rank named") {
    // Polling peers change their call chains all the time: that is not progress here.
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, true, true), check(2, false, false, true),
                                           check(3, true, true)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{2});
    CHECK(v.reason.find("stopped") != std::string::npos);
}

TEST_CASE("still verification: a suspect that moved clears the alarm") {
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, false, false), check(2, true, false)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK_FALSE(v.hang);
    CHECK(v.progressed == std::vector<int>{2});
}

TEST_CASE("still verification: a spinning suspect while another rank computes is no hang (yet)") {
    std::vector<RankVerification> ranks = {check(0, true, false), check(1, true, true),
                                           check(2, false, false, false, true)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK_FALSE(v.hang);
    CHECK(v.reason.find("compute outside MPI") != std::string::npos);
}

TEST_CASE("still verification: a spinning suspect while the others wait is a hang") {
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, false, true),
                                           check(2, false, false, false, true)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{2});
}

TEST_CASE("still verification: a frozen suspect stands on its own while other ranks work (master-worker)") {
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, true, false), check(2, false, false)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{2});
    CHECK(v.reason.find("asleep or blocked") != std::string::npos);
}

TEST_CASE("still verification: other ranks stuck outside MPI join the suspects") {
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, false, false), check(2, false, false)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>({1, 2}));
}

TEST_CASE("a whole job stopped at once is suspended, never a hang, on either verification path") {
    std::vector<RankVerification> ranks = {check(0, false, true, true), check(1, false, false, true),
                                           check(2, false, true, true)};
    CHECK(whole_job_stopped(ranks));
    CHECK_FALSE(judge_still_verification(ranks, {1}).hang);
    CHECK_FALSE(judge_verification(ranks).hang);
    CHECK(judge_verification(ranks).reason.find("suspended") != std::string::npos);
}

TEST_CASE("still verification: every rank in one call chain outside MPI, nobody waiting, is no hang") {
    std::vector<RankVerification> ranks = {check(0, false, false, false, true), check(1, false, false, false, true),
                                           check(2, false, false, false, true)};
    Verdict v = judge_still_verification(ranks, {0, 1, 2});
    CHECK_FALSE(v.hang);
    CHECK(v.reason.find("no rank waits") != std::string::npos);
}

TEST_CASE("still verification: a spinning run ten times the longest healthy one stands while others work") {
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, true, false),
                                           check(2, false, false, false, true)};
    CHECK_FALSE(judge_still_verification(ranks, {2}).hang);
    ranks[2].outlier_run = true;
    Verdict v = judge_still_verification(ranks, {2});
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{2});
}

TEST_CASE("a run is an outlier only against a healthy run of its kind seen before") {
    RankStillnessModel m;
    double t = 0;
    for (int i = 0; i < 30; ++i) m.observe(round_of(t += 0.4), 4);
    bool outlier = false;
    for (int i = 0; i < 100; ++i)
        for (const auto& a : m.observe(round_of(t += 0.4, {1}, StillKind::spinning), 4)) outlier |= a.outlier;
    CHECK_FALSE(outlier);  // 40 s, but nothing to compare with: first occurrence
    m.observe(round_of(t += 0.4), 4);  // it ends: now 39.6 s is the longest healthy spinning run
    for (int i = 0; i < 3; ++i) m.observe(round_of(t += 0.4, {2}, StillKind::spinning), 4);
    m.observe(round_of(t += 0.4), 4);
    REQUIRE(m.longest_healthy(StillKind::spinning) > 39);
    std::vector<RankAlarm> last;
    for (int i = 0; i < 1200 && (last.empty() || !last[0].outlier); ++i)
        last = m.observe(round_of(t += 0.4, {3}, StillKind::spinning), 4);
    REQUIRE(!last.empty());
    CHECK(last[0].outlier);
    CHECK(last[0].duration >= 10 * m.longest_healthy(StillKind::spinning));
}

TEST_CASE("deadlock path: every rank 'waiting' in a polling call is never claimed a deadlock") {
    std::vector<RankVerification> ranks;
    for (int r = 0; r < 4; ++r) {
        RankVerification v = check(r, false, true);
        v.mpi_call = "PMPI_Testany";
        ranks.push_back(v);
    }
    Verdict v = judge_verification(ranks);
    CHECK_FALSE(v.hang);
    CHECK(v.reason.find("poll") != std::string::npos);
    for (auto& r : ranks) r.mpi_call = "PMPI_Wait";  // blocked in a wait: a deadlock as before
    CHECK(judge_verification(ranks).hang);
}

TEST_CASE("stopped throughout: T or t in every verification look, never in only some") {
    CHECK(stopped_throughout("TTTTT"));
    CHECK(stopped_throughout("TtTtT"));  // t: in a ptrace stop (ours) while stopped
    CHECK_FALSE(stopped_throughout("TTRTT"));  // continued in between: a stop/continue throttle
    CHECK_FALSE(stopped_throughout("TTTTS"));
    CHECK_FALSE(stopped_throughout("DDDDD"));  // blocked in the kernel: judged apart
    CHECK_FALSE(stopped_throughout(""));
}

TEST_CASE("still verification: a rank stopped in some looks only is throttled, not hung") {
    // The SIGSTOP/SIGCONT duty cycle: found stopped in two looks, in MPI in another, same call chain.
    RankVerification throttled = check(2, false, true);
    throttled.seen_stopped = true;
    std::vector<RankVerification> ranks = {check(0, true, true), check(1, true, true), throttled, check(3, true, true)};
    Verdict v = judge_still_verification(ranks, {2});
    CHECK_FALSE(v.hang);
    CHECK(v.progressed == std::vector<int>{2});
    // Outside MPI in every look and running in between: spinning (the spin watch decides), never "stopped".
    RankVerification computing = check(2, false, false, false, true);
    computing.seen_stopped = true;
    ranks[2] = computing;
    v = judge_still_verification(ranks, {2});
    CHECK(v.reason.find("stopped") == std::string::npos);
    // Stopped in every look: a hang, that rank named, as before.
    RankVerification stopped = check(2, false, false, true);
    stopped.seen_stopped = true;
    ranks[2] = stopped;
    v = judge_still_verification(ranks, {2});
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{2});
    CHECK(v.reason.find("stopped") != std::string::npos);
}

TEST_CASE("a job whose every rank was seen stopped in some look is still a suspended job") {
    std::vector<RankVerification> ranks = {check(0, false, true), check(1, false, false), check(2, false, true)};
    for (auto& r : ranks) r.seen_stopped = true;
    CHECK(whole_job_stopped(ranks));
    CHECK_FALSE(judge_verification(ranks).hang);
}
