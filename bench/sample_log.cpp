#include "sample_log.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "hang/model/sample_record.h"

namespace jobsentry::bench {
namespace {

// " r3:stopped+" -> rank 3, Activity::stopped, moved.
bool parse_rank(const std::string& word, RankRoundSample* out, Activity* activity_out, double t) {
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
    else if (activity == "threads_working") a = Activity::threads_working;
    else return false;
    out->rank = std::atoi(word.c_str() + 1);
    out->kind = still_kind(a, moved);
    *activity_out = a;
    out->moved = moved;
    out->at = t;
    return true;
}

// " r0=S,p=... v0=812 q0=0 r1=..." -> each rank's record and, where logged, its sleeps (voluntary
// context switches) read just before the look (own_wakeups.h) and its quota's throttle count ("q");
// "out=N", the bytes the ranks' launchers have written (SlowRound::output_bytes), into *output.
std::map<int, StackSample> parse_records(const std::string& text, std::map<int, uint64_t>* sleeps,
                                         std::map<int, int64_t>* throttled = nullptr, int64_t* output = nullptr) {
    std::map<int, StackSample> out;
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        auto eq = word.find('=');
        if (word.size() >= 3 && word[0] == 'v' && eq != std::string::npos) {
            (*sleeps)[std::atoi(word.c_str() + 1)] = std::strtoull(word.c_str() + eq + 1, nullptr, 10);
            continue;
        }
        if (word.size() >= 3 && word[0] == 'q' && eq != std::string::npos) {
            if (throttled) (*throttled)[std::atoi(word.c_str() + 1)] = std::strtoll(word.c_str() + eq + 1, nullptr, 10);
            continue;
        }
        if (word.compare(0, 4, "out=") == 0) {
            if (output) *output = std::strtoll(word.c_str() + 4, nullptr, 10);
            continue;
        }
        if (word.size() < 4 || word[0] != 'r' || eq == std::string::npos) continue;
        if (auto s = parse_sample_record(std::string_view(word).substr(eq + 1)))
            out[std::atoi(word.c_str() + 1)] = *s;
    }
    return out;
}

}  // namespace

std::vector<Round> read_rounds(std::istream& in) {
    std::vector<Round> out;
    std::string line;
    while (std::getline(in, line)) {
        auto record = line.find(" record: ");
        if (record != std::string::npos) {
            if (out.empty()) continue;
            std::map<int, uint64_t> sleeps;
            std::map<int, int64_t> throttled;
            int64_t output = -1;
            auto records = parse_records(line.substr(record + 9), &sleeps, &throttled, &output);
            if (line.find("verification round ") != std::string::npos) {
                out.back().verification.push_back(std::move(records));
                out.back().verification_sleeps.push_back(std::move(sleeps));
            } else if (line.find("spin watch ") != std::string::npos) {
                out.back().spin_watch.push_back(std::move(records));
            } else if (line.find("sample ") != std::string::npos) {
                out.back().records = std::move(records);
                out.back().sleeps = std::move(sleeps);
                out.back().throttled = std::move(throttled);
                out.back().output_bytes = output;
            }
            continue;
        }
        auto s_out = line.find(" S_out="), s_move = line.find(" S_move=");
        if (line.find("sample ") == std::string::npos || s_out == std::string::npos || s_move == std::string::npos)
            continue;
        Round r;
        r.source = out.size();
        r.s_out = std::atof(line.c_str() + s_out + 7);
        r.s_move = std::atof(line.c_str() + s_move + 8);
        auto t = line.find(" t="), bar = line.find(" | ");
        if (t != std::string::npos) r.t = std::atof(line.c_str() + t + 3);
        if (t != std::string::npos && bar != std::string::npos) {
            std::istringstream words(line.substr(bar + 3));
            std::string word;
            r.all_stopped = true;
            while (words >> word && word != "|") {
                RankRoundSample rank;
                Activity activity;
                if (!parse_rank(word, &rank, &activity, r.t)) continue;
                r.activity[rank.rank] = activity;
                r.all_stopped = r.all_stopped && word.find(":stopped") != std::string::npos;
                r.ranks.push_back(rank);
            }
            r.has_ranks = !r.ranks.empty();
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace jobsentry::bench
