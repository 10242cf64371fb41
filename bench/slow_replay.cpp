// slow_replay: feeds a supervisor's verbose log (--verbose, log_samples=yes) through a fresh slow
// verdict model (hang/model/slow_rank.h), as the watcher does: each logged round's ranks with their
// activity and, from the record line below it, the main thread's scheduler times and the time each
// rank took to stop (s=: which samples caught it on its CPU); rounds in which
// every rank is stopped are left out (a suspended job), as are rounds with fewer than two ranks.
// The throttle counts (read every 4th round where the ranks outnumber their CPUs) are replayed where
// the log has them ("q" words of the record line); logs written before them have none, so the hold
// on unevenly served ranks never applies and no rank is found throttled, unless --never-throttled
// says that no CPU quota held any rank back (for runs whose ranks outnumbered their CPUs and had no
// quota set: each rank then reads 0 in the rounds the watcher reads). What the replay cannot have:
// the link readings, and the ranks' nodes (a multi-node job's log is judged as one node's). So it
// judges a recorded job again under the rule of this build: evidence for the rule from every run
// recorded under an older one.
//   slow_replay [--baseline-rounds N] [--alpha A] [--min-window-s S] [--never-throttled] [--looks] < supervisor.log
// Prints the first slow verdict ("slow at round R, t=T s: slow: rank 3 (node vm) ~1.46x; ...; job
// factor from compute_rates") and the verdict at the end (the last slow look's, with its estimates
// over the most rounds, what its job factor comes from and the peers' CPU share before and since), or "no
// slow verdict in R rounds"; then the smallest corrected p of any look; --looks: every look.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>

#include "hang/model/slow_rank.h"
#include "sample_log.h"

int main(int argc, char** argv) {
    jobsentry::SlowRankConfig config;
    bool looks = false, never_throttled = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--looks") looks = true;
        else if (arg == "--never-throttled") never_throttled = true;
        else if (i + 1 < argc && arg == "--baseline-rounds") config.baseline_rounds = std::atoi(argv[++i]);
        else if (i + 1 < argc && arg == "--alpha") config.alpha = std::atof(argv[++i]);
        else if (i + 1 < argc && arg == "--min-window-s") config.min_window_s = std::atof(argv[++i]);
        else {
            std::cerr << "usage: slow_replay [--baseline-rounds N] [--alpha A] [--min-window-s S] [--never-throttled] [--looks] < supervisor.log\n";
            return 2;
        }
    }
    if (config.baseline_rounds < 1 || !(config.alpha > 0 && config.alpha < 1)) {
        std::cerr << "slow_replay: --baseline-rounds takes a positive count, --alpha a level in (0, 1)\n";
        return 2;
    }
    jobsentry::SlowRankModel model(config);
    double smallest = 1;
    bool told = false;
    size_t logged = 0;  // the log's rounds, as the watcher counts its samples
    for (const jobsentry::bench::Round& r : jobsentry::bench::read_rounds(std::cin)) {
        ++logged;
        if (r.all_stopped) continue;
        jobsentry::SlowRound round;
        round.at = r.t;
        round.output_bytes = r.output_bytes;
        for (const jobsentry::RankRoundSample& sampled : r.ranks) {
            const int rank = sampled.rank;
            jobsentry::RankState s{rank, r.activity.at(rank)};
            s.moved = sampled.moved;
            if (auto it = r.records.find(rank); it != r.records.end() && it->second.sched_known) {
                s.sched_known = true;
                s.run_ns = it->second.main_run_ns;
                s.wait_ns = it->second.main_wait_ns;
            }
            if (auto it = r.records.find(rank); it != r.records.end()) s.stop_seconds = it->second.stop_seconds;
            if (auto q = r.throttled.find(rank); q != r.throttled.end()) s.throttled = q->second;
            else if (never_throttled && (logged - 1) % 4 == 0) s.throttled = 0;  // the watcher reads before counting the round
            round.ranks.push_back(s);
        }
        if (!model.observe(round)) continue;
        const jobsentry::SlowVerdict& look = model.last_look();
        if (look.status == jobsentry::SlowStatus::learning) continue;
        smallest = std::min(smallest, look.p_value);
        if (looks)
            std::cout << "look at round " << look.rounds << ", t=" << r.t << " s: " << jobsentry::slow_summary(look)
                      << "; p x tests " << look.p_value << (look.held_back.empty() ? "" : "; held back: " + look.held_back)
                      << "\n";
        if (!told && look.status == jobsentry::SlowStatus::slow) {
            told = true;
            const jobsentry::SlowUnit& u = look.units.front();
            std::cout << "slow at round " << look.rounds << ", t=" << r.t
                      << " s: " << jobsentry::slow_summary(look) << "; " << jobsentry::to_string(u.evidence) << " in "
                      << 100 * u.recent_share << " % of the last " << u.window << " rounds against "
                      << 100 * u.baseline_share << " % at baseline (p " << u.p_value << "); p x tests " << look.p_value
                      << " over " << look.tests << " tests; job factor from " << look.job_factor_from
                      << " (" << look.computing_samples_before << " computing samples at baseline)\n";
        }
    }
    if (!told) std::cout << "no slow verdict in " << model.verdict().rounds << " rounds\n";
    else
        std::cout << "at the end: " << jobsentry::slow_summary(model.verdict()) << " (from "
                  << model.verdict().job_factor_from << "; peers' CPU " << model.verdict().peers_cpu_before << " -> "
                  << model.verdict().peers_cpu_now << ")\n";
    std::cout << "smallest p x tests of any look: " << smallest << "; inflation " << model.rank_inflation() << "\n";
    return 0;
}
