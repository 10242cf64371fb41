// model_replay: feeds logged samples (the supervisor's log_samples=yes /
// --verbose lines "sample N t=T ... S_out=X ... S_move=Y ... | r0:in_mpi+
// r1:stopped ...") through fresh models, as the watcher does: the two
// ParaStack models on S_out and S_move, and the per-rank model of still runs
// (rank_stillness.h) on each rank's activity and movement ('+'). Prints the
// first sample at which any of them would raise an alarm (or that none
// would). For comparing decision rules on the same recorded jobs; it does not
// verify, so a claim here is a candidate, not a verdict. Logs written before
// the per-rank model (no t=) replay the two ParaStack models only.
//   model_replay [--alpha A] < job_N.log
// --seeds N [--block B]: a moving-block bootstrap of the log's stream instead.
// Each of N seeds draws blocks of B consecutive samples (default 50, so that
// each block keeps its phases' correlation) at random places of the recorded
// stream until it is as long as the recorded one, and replays that stream;
// prints how many of the N replays would have raised a candidate, and where.
// For hang-free logs only: N streams the job could have given, through the rule.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hang/model/parastack.h"
#include "hang/model/rank_stillness.h"

namespace {

// " r3:stopped+" -> rank 3, Activity::stopped, moved.
bool parse_rank(const std::string& word, jobsentry::RankRoundSample* out, double t) {
    using jobsentry::Activity;
    if (word.size() < 4 || word[0] != 'r') return false;
    auto colon = word.find(':');
    if (colon == std::string::npos) return false;
    std::string activity = word.substr(colon + 1);
    bool moved = !activity.empty() && activity.back() == '+';
    if (moved) activity.pop_back();
    Activity a;
    if (activity == "in_mpi") a = Activity::in_mpi;
    else if (activity == "computing") a = Activity::computing;
    else if (activity == "idle_outside") a = Activity::idle_outside;
    else if (activity == "stopped") a = Activity::stopped;
    else return false;
    out->rank = std::atoi(word.c_str() + 1);
    out->kind = jobsentry::still_kind(a, moved);
    out->moved = moved;
    out->at = t;
    return true;
}

// One logged sampling round: the two shares and the ranks' activities.
struct Round {
    double s_out = 0, s_move = 0;
    bool has_ranks = false, all_stopped = false;
    std::vector<jobsentry::RankRoundSample> ranks;
};

std::vector<Round> read_rounds(std::istream& in) {
    std::vector<Round> out;
    std::string line;
    while (std::getline(in, line)) {
        auto s_out = line.find(" S_out="), s_move = line.find(" S_move=");
        if (line.find("sample ") == std::string::npos || s_out == std::string::npos || s_move == std::string::npos)
            continue;
        Round r;
        r.s_out = std::atof(line.c_str() + s_out + 7);
        r.s_move = std::atof(line.c_str() + s_move + 8);
        auto t = line.find(" t="), bar = line.find(" | ");
        if (t != std::string::npos && bar != std::string::npos) {
            std::istringstream words(line.substr(bar + 3));
            std::string word;
            r.all_stopped = true;
            while (words >> word && word != "|") {
                jobsentry::RankRoundSample rank;
                if (!parse_rank(word, &rank, std::atof(line.c_str() + t + 3))) continue;
                r.all_stopped = r.all_stopped && word.find(":stopped") != std::string::npos;
                r.ranks.push_back(rank);
            }
            r.has_ranks = !r.ranks.empty();
        }
        out.push_back(std::move(r));
    }
    return out;
}

// The first claim of fresh models fed these rounds, as the watcher would raise it; "" when none.
// Times of a bootstrap stream are made to run on (each block's own spacing kept).
std::string first_claim(const std::vector<Round>& rounds, const jobsentry::ModelConfig& config) {
    jobsentry::ParaStackModel s_out_model(config), s_move_model(config);
    jobsentry::RankStillnessModel ranks_model(jobsentry::StillnessConfig{config.alpha, 2.0});
    for (size_t i = 0; i < rounds.size(); ++i) {
        const Round& r = rounds[i];
        const std::string at = "claim at sample " + std::to_string(i + 1);
        auto a = s_out_model.observe(r.s_out);
        auto b = s_move_model.observe(r.s_move);
        if (a.hang || b.hang) return at + " (" + (a.hang ? "S_out" : "S_move") + ")";
        if (!r.has_ranks) continue;
        if (r.all_stopped) {  // a suspended job, as the watcher treats it
            ranks_model.suspended();
            continue;
        }
        auto alarms = ranks_model.observe(r.ranks, static_cast<int>(r.ranks.size()));
        const bool someone_not_still = std::any_of(r.ranks.begin(), r.ranks.end(), [](const auto& rank) {
            return rank.kind == jobsentry::StillKind::none;
        });
        if (!someone_not_still) continue;  // as the watcher: nobody waits for a still rank
        for (const auto& alarm : alarms)
            if (alarm.significant && alarm.outlasted)
                return at + " (rank " + std::to_string(alarm.rank) + " " + jobsentry::to_string(alarm.kind) + ")";
    }
    return {};
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
        const double first = rounds[from].has_ranks ? rounds[from].ranks.front().at : 0;
        for (size_t i = from; i < from + block && out.size() < rounds.size(); ++i) {
            Round r = rounds[i];
            for (auto& rank : r.ranks) rank.at = clock + (rank.at - first);
            out.push_back(std::move(r));
        }
        if (!out.back().ranks.empty()) clock = out.back().ranks.front().at + 0.4;
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
        if (i + 1 >= argc) {
            std::cerr << "model_replay: " << arg << " needs a value\n";
            return 2;
        }
        const char* value = argv[++i];
        if (arg == "--alpha") config.alpha = std::atof(value);
        else if (arg == "--seeds") seeds = std::atoi(value);
        else if (arg == "--block") block = static_cast<size_t>(std::max(1, std::atoi(value)));
        else {
            std::cerr << "usage: model_replay [--alpha A] [--seeds N [--block B]] < supervisor.log\n";
            return 2;
        }
    }
    const std::vector<Round> rounds = read_rounds(std::cin);
    if (seeds <= 0) {
        const std::string claim = first_claim(rounds, config);
        std::cout << (claim.empty() ? "no claim in " + std::to_string(rounds.size()) + " samples" : claim) << "\n";
        return 0;
    }
    if (rounds.empty()) {
        std::cout << "no samples\n";
        return 0;
    }
    int claims = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        std::mt19937 rng(static_cast<unsigned>(seed));
        const std::string claim = first_claim(bootstrap(rounds, block, rng), config);
        if (claim.empty()) continue;
        ++claims;
        std::cout << "seed " << seed << ": " << claim << "\n";
    }
    std::cout << "replays " << seeds << " of " << rounds.size() << " samples (blocks of " << block << "): " << claims
              << " with a claim\n";
    return 0;
}
