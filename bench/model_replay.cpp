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
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

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

}  // namespace

int main(int argc, char** argv) {
    jobsentry::ModelConfig config;
    if (argc == 3 && std::strcmp(argv[1], "--alpha") == 0) config.alpha = std::atof(argv[2]);
    else if (argc != 1) {
        std::cerr << "usage: model_replay [--alpha A] < supervisor.log\n";
        return 2;
    }
    jobsentry::ParaStackModel s_out_model(config), s_move_model(config);
    jobsentry::RankStillnessModel ranks_model(jobsentry::StillnessConfig{config.alpha, 2.0});
    std::string line;
    int samples = 0;
    while (std::getline(std::cin, line)) {
        auto out = line.find(" S_out="), move = line.find(" S_move=");
        if (line.find("sample ") == std::string::npos || out == std::string::npos || move == std::string::npos)
            continue;
        ++samples;
        auto a = s_out_model.observe(std::atof(line.c_str() + out + 7));
        auto b = s_move_model.observe(std::atof(line.c_str() + move + 8));
        if (a.hang || b.hang) {
            std::cout << "claim at sample " << samples << " (" << (a.hang ? "S_out" : "S_move") << ")\n";
            return 0;
        }
        auto t = line.find(" t="), bar = line.find(" | ");
        if (t == std::string::npos || bar == std::string::npos) continue;
        std::vector<jobsentry::RankRoundSample> round;
        std::istringstream words(line.substr(bar + 3));
        std::string word;
        bool all_stopped = true;
        while (words >> word && word != "|") {
            jobsentry::RankRoundSample r;
            if (!parse_rank(word, &r, std::atof(line.c_str() + t + 3))) continue;
            all_stopped = all_stopped && word.find(":stopped") != std::string::npos;
            round.push_back(r);
        }
        if (round.empty()) continue;
        if (all_stopped) {  // a suspended job, as the watcher treats it
            ranks_model.suspended();
            continue;
        }
        auto alarms = ranks_model.observe(round, static_cast<int>(round.size()));
        const bool someone_not_still = std::any_of(round.begin(), round.end(), [](const auto& r) {
            return r.kind == jobsentry::StillKind::none;
        });
        if (!someone_not_still) continue;  // as the watcher: nobody waits for a still rank
        for (const auto& alarm : alarms) {
            if (alarm.significant && alarm.outlasted) {
                std::cout << "claim at sample " << samples << " (rank " << alarm.rank << " "
                          << jobsentry::to_string(alarm.kind) << ")\n";
                return 0;
            }
        }
    }
    std::cout << "no claim in " << samples << " samples\n";
    return 0;
}
