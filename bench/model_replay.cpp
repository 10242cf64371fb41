// model_replay: feeds logged samples (the supervisor's log_samples=yes /
// --verbose lines "sample N t=T ... S_out=X ... S_move=Y ... | r0:in_mpi+
// r1:stopped ..." and, below each, "sample N record: r0=S,p=...") through fresh
// models, as the watcher does: the two ParaStack models on S_out and S_move
// (with the watcher's hold: an all-still alarm must outlast twice the job's
// longest healthy still phase), and the per-rank model of still runs
// (rank_stillness.h) on each rank's activity and movement ('+').
//
// Each candidate is then verified as the watcher verifies it, on what the
// recorded job did next: the verify window is the next 5 recorded rounds
// after the candidate's round (longer on the all-still path, as long as the
// stillness before it, up to 60 s), built into RankVerifications by
// verify_rank and judged by judge_verification / judge_still_verification
// (progress.h); a confirmed suspect spinning outside MPI is watched on the
// recorded rounds after that until it has run --spin-verify-ms of CPU time
// (60 s) in one call chain. A cleared candidate is dismissed from the models,
// as in the watcher, and a rank whose sleeps (voluntary context switches, the
// "v" words of the record lines) grew beyond what the looks account for woke by
// itself (own_wakeups.h). What the replay cannot have: the sleeps where a log
// has no v words (its first campaign logs with records: a rank blocked in
// I/O then looks stuck), a rank that exited or never stopped in the window
// (such a rank is never a hang's: the replay clears it), and the exact timing (the recorded rounds are an interval apart; the watcher's
// verification rounds half as far). Logs without record lines (written before
// them) replay the candidates only: a claim there is a candidate, not a verdict.
//   model_replay [--verbose] [--alpha A] [--spin-verify-ms MS] < job_N.log   (--verbose: each candidate and why it was cleared)
// --seeds N [--block B]: a moving-block bootstrap of the log's stream instead.
// Each of N seeds draws blocks of B consecutive samples (default 50, so that
// each block keeps its phases' correlation) at random places of the recorded
// stream until it is as long as the recorded one, and replays that stream; a
// candidate's verification reads the recorded rounds after the candidate's
// own (what the job did next, never a block join). Prints how many of the N
// replays would have raised a candidate, and how many a hang verdict.
// For hang-free logs only: N streams the job could have given, through the rule.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hang/model/own_wakeups.h"
#include "hang/model/parastack.h"
#include "hang/model/progress.h"
#include "hang/model/rank_stillness.h"
#include "hang/model/sample_record.h"
#include "hang/model/spin_watch.h"
#include "sample_log.h"

namespace {

using jobsentry::StackSample;
using jobsentry::bench::Round;
using jobsentry::bench::read_rounds;

bool g_verbose = false;  // --verbose: every candidate and why it was cleared, on stderr
constexpr int kVerifyRounds = 5;        // --verify-rounds' default
double g_spin_verify_s = 60;  // the watcher's --spin-verify-ms (its default; --spin-verify-ms here)
constexpr double kLongestStillBefore = 60;  // the all-still path's window, at most

struct Outcome {
    std::string first_candidate;  // "claim at sample N (...)", "" when none
    int candidates = 0, cleared = 0;
    bool unverifiable = false;    // a candidate without records: the replay stops there, as a claim
    std::string verdict;          // "hang verdict at sample N: ...", "" when none
};

// The watcher's spin watch (spin_watch.h) of a suspect over `looks` (its records, in order, with
// the time of each): "" when the suspect's hang stands, else why it is cleared.
std::string spin_watch(const std::vector<const StackSample*>& looks, const StackSample& latest) {
    static const double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
    jobsentry::SpinWatch watch(latest, g_spin_verify_s, tick);
    if (looks.empty()) return "the job ended during the spin watch";
    const double began = looks.front()->taken_at;
    for (const StackSample* s : looks) {
        if (s->taken_at - began > watch.wall_limit_seconds()) return "too little CPU time to tell";
        if (watch.look(*s) == jobsentry::SpinWatch::Look::moved) return "moved to another function";
        if (watch.stands()) return {};
    }
    return "the job ended during the spin watch";
}

// Verification of a candidate raised at stream round r, on the recorded rounds after r.source:
// the watcher's verdict ("" when cleared) and, for a clearance, the ranks that progressed.
std::string verify(const std::vector<Round>& recorded, const Round& r, const std::vector<int>& still_suspects,
                   double still_before, const std::vector<jobsentry::RankAlarm>& alarms, std::vector<int>* progressed,
                   std::string* why) {
    const bool deadlock_path = still_suspects.empty();
    std::map<int, std::vector<StackSample>> window;
    const Round& source = recorded[r.source];
    // The recorded watcher's own verification of this round, where it made one; else the rounds after.
    const bool own = !source.verification.empty();
    int rounds = own ? static_cast<int>(source.verification.size()) : kVerifyRounds;
    bool changed = false;
    size_t j = r.source + 1;
    jobsentry::OwnWakeups wakeups;  // a rank asleep at every look that woke by itself between them
    for (int k = 0; k < rounds; ++k) {
        if (!own && j >= recorded.size()) {
            *why = "the job ended during verification";
            return {};
        }
        const std::map<int, uint64_t>& sleeps = own ? source.verification_sleeps[k] : recorded[j].sleeps;
        for (const auto& [rank, n] : sleeps) wakeups.reading(rank, n);
        for (const auto& [rank, s] : r.records) wakeups.looked(rank);
        const std::map<int, StackSample>& looks = own ? source.verification[k] : recorded[j++].records;
        if (!own && k == rounds - 1 && deadlock_path && !changed && recorded[j - 1].t - r.t < still_before) ++rounds;
        for (const auto& [rank, s] : looks) {
            auto& list = window[rank];
            if (!list.empty() && jobsentry::progress_signature(list.front()) != jobsentry::progress_signature(s))
                changed = true;
            list.push_back(s);
        }
    }
    std::vector<jobsentry::RankVerification> checks;
    for (const auto& [rank, before] : r.records) {
        if (window[rank].empty()) {  // failed or gone in every round: never a hang of what was not seen
            *why = "rank " + std::to_string(rank) + " not seen in the window";
            return {};
        }
        auto v = jobsentry::verify_rank(rank, window[rank], &before);
        if (wakeups.woke_by_itself(rank)) v.signature_changed = true;  // a loop that sleeps
        v.outlier_run = std::any_of(alarms.begin(), alarms.end(),
                                    [&](const jobsentry::RankAlarm& a) { return a.rank == rank && a.outlier; });
        checks.push_back(v);
    }
    auto verdict = deadlock_path ? jobsentry::judge_verification(checks)
                                 : jobsentry::judge_still_verification(checks, still_suspects);
    *progressed = verdict.progressed;
    if (!verdict.hang) {
        *why = verdict.reason;
        return {};
    }
    for (const auto& c : checks) {  // the watcher's spin watch of suspects computing outside MPI
        const auto need = jobsentry::spin_watch_need(c, verdict.suspects);
        if (need == jobsentry::SpinWatchNeed::threads_work) {
            *why = "rank " + std::to_string(c.rank) + "'s other threads work";
            return {};
        }
        if (need != jobsentry::SpinWatchNeed::watch) continue;
        std::vector<const StackSample*> looks;  // the recorded spin watch's, or the rounds after the window
        for (const auto& look : source.spin_watch)
            if (auto it = look.find(c.rank); it != look.end()) looks.push_back(&it->second);
        if (source.spin_watch.empty())
            for (size_t k = j; k < recorded.size(); ++k)
                if (auto it = recorded[k].records.find(c.rank); it != recorded[k].records.end()) looks.push_back(&it->second);
        const std::string cleared = spin_watch(looks, window[c.rank].back());
        if (!cleared.empty()) {
            *why = "rank " + std::to_string(c.rank) + " " + cleared;
            return {};
        }
    }
    return verdict.reason;
}

// The candidates and verdict of fresh models fed the rounds of `stream`, verifying on `recorded`.
Outcome replay(const std::vector<Round>& stream, const std::vector<Round>& recorded, const jobsentry::ModelConfig& config) {
    jobsentry::ParaStackModel s_out_model(config), s_move_model(config);
    jobsentry::RankStillnessModel ranks_model(jobsentry::StillnessConfig{config.alpha, 2.0});
    Outcome out;
    double progress_seen = 0, still_phase = 0, longest_still = 0;  // the watcher's hold of all-still alarms
    for (size_t i = 0; i < stream.size(); ++i) {
        const Round& r = stream[i];
        auto a = s_out_model.observe(r.s_out);
        auto b = s_move_model.observe(r.s_move);
        std::vector<int> suspects;
        std::vector<jobsentry::RankAlarm> alarms;
        std::string kind;
        if (r.has_ranks && r.all_stopped) {
            ranks_model.suspended();  // a suspended job, as the watcher treats it
        } else if (r.has_ranks) {
            alarms = ranks_model.observe(r.ranks, static_cast<int>(r.ranks.size()));
            const bool someone_not_still = std::any_of(r.ranks.begin(), r.ranks.end(), [](const auto& rank) {
                return rank.kind == jobsentry::StillKind::none;
            });
            if (someone_not_still)  // as the watcher: nobody waits for a still rank
                for (const auto& alarm : alarms)
                    if (alarm.significant && alarm.outlasted) {
                        suspects.push_back(alarm.rank);
                        if (kind.empty()) kind = "rank " + std::to_string(alarm.rank) + " " + jobsentry::to_string(alarm.kind);
                    }
        }
        if (r.s_move > 0) {
            if (still_phase > progress_seen && progress_seen > 0) longest_still = std::max(longest_still, still_phase - progress_seen);
            progress_seen = r.t;
        } else {
            still_phase = r.t;
        }
        if (suspects.empty()) {
            if (!a.hang && !b.hang) continue;
            if (progress_seen > 0 && r.t - progress_seen < 2 * longest_still) continue;  // held
            kind = a.hang ? "S_out" : "S_move";
        }
        ++out.candidates;
        const std::string at = "sample " + std::to_string(i + 1);
        if (out.first_candidate.empty()) out.first_candidate = "claim at " + at + " (" + kind + ")";
        if (r.records.empty()) {  // a log without records: the candidate stands as a claim
            out.unverifiable = true;
            return out;
        }
        std::vector<int> progressed;
        std::string why;
        const double still_before = progress_seen > 0 ? std::min(r.t - progress_seen, kLongestStillBefore) : 0;
        const std::string hang = verify(recorded, r, suspects, still_before, alarms, &progressed, &why);
        if (!hang.empty()) {
            out.verdict = "hang verdict at " + at + " (" + kind + "): " + hang;
            return out;
        }
        ++out.cleared;
        if (g_verbose) std::cerr << "candidate at " << at << " (" << kind << ") cleared: " << why << "\n";
        s_out_model.dismiss_streak();
        s_move_model.dismiss_streak();
        for (int rank : suspects) {
            if (std::count(progressed.begin(), progressed.end(), rank)) ranks_model.cleared(rank);
            else ranks_model.postpone(rank);
        }
    }
    return out;
}

// A stream as long as `rounds` of blocks of `block` consecutive rounds drawn at random; the
// rounds' times shifted so that they keep increasing across the joins.
std::vector<Round> bootstrap(const std::vector<Round>& rounds, size_t block, std::mt19937& rng) {
    std::vector<Round> out;
    block = std::min(block, rounds.size());
    std::uniform_int_distribution<size_t> start(0, rounds.size() - block);
    double clock = 0;
    while (out.size() < rounds.size()) {
        const size_t from = start(rng);
        const double first = rounds[from].t;
        for (size_t i = from; i < from + block && out.size() < rounds.size(); ++i) {
            Round r = rounds[i];
            r.t = clock + (r.t - first);
            for (auto& rank : r.ranks) rank.at = r.t;
            out.push_back(std::move(r));
        }
        clock = out.back().t + 0.4;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    jobsentry::ModelConfig config;
    int seeds = 0;
    size_t block = 50;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--verbose") {
            g_verbose = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::cerr << "model_replay: " << arg << " needs a value\n";
            return 2;
        }
        const char* value = argv[++i];
        if (arg == "--alpha") config.alpha = std::atof(value);
        else if (arg == "--seeds") seeds = std::atoi(value);
        else if (arg == "--spin-verify-ms") g_spin_verify_s = std::atof(value) / 1000;
        else if (arg == "--block") block = static_cast<size_t>(std::max(1, std::atoi(value)));
        else {
            std::cerr << "usage: model_replay [--verbose] [--alpha A] [--spin-verify-ms MS] [--seeds N [--block B]] < supervisor.log\n";
            return 2;
        }
    }
    const std::vector<Round> rounds = read_rounds(std::cin);
    if (seeds <= 0) {
        const Outcome o = replay(rounds, rounds, config);
        std::cout << (o.first_candidate.empty() ? "no claim in " + std::to_string(rounds.size()) + " samples"
                                                : o.first_candidate)
                  << "\n";
        if (o.unverifiable) std::cout << "verdict: not replayed (the log has no sample records)\n";
        else if (!o.verdict.empty()) std::cout << "verdict: " << o.verdict << "\n";
        else if (o.candidates == 0) std::cout << "verdict: none (no candidate)\n";
        else std::cout << "verdict: none (" << o.candidates << " candidate(s), all cleared by the replayed verification)\n";
        return 0;
    }
    if (rounds.empty()) {
        std::cout << "no samples\n";
        return 0;
    }
    int claims = 0, verdicts = 0, candidates = 0, unverifiable = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        std::mt19937 rng(static_cast<unsigned>(seed));
        const Outcome o = replay(bootstrap(rounds, block, rng), rounds, config);
        candidates += o.candidates;
        if (o.unverifiable) ++unverifiable;
        if (o.first_candidate.empty()) continue;
        ++claims;
        if (!o.verdict.empty()) ++verdicts;
        std::cout << "seed " << seed << ": " << o.first_candidate << "; "
                  << (o.unverifiable ? "not verifiable" : o.verdict.empty() ? "all cleared" : o.verdict) << "\n";
    }
    std::cout << "replays " << seeds << " of " << rounds.size() << " samples (blocks of " << block << "): " << claims
              << " with a claim, " << candidates << " candidates, " << verdicts << " with a hang verdict, "
              << unverifiable << " not verifiable\n";
    return 0;
}
