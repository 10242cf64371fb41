#include "hang/model/report_stacks.h"

#include <algorithm>
#include <set>

#include "hang/model/progress.h"

namespace jobsentry {
namespace {

bool has_frames(const StackSample& s) { return s.status == SampleStatus::ok && !s.digest_only; }
bool digest_only(const StackSample& s) { return s.status == SampleStatus::ok && s.digest_only; }

}  // namespace

std::vector<int> report_stack_fetches(const std::map<int, StackSample>& latest, const std::vector<int>& suspects,
                                      size_t limit) {
    std::vector<int> fetch;
    std::set<uint64_t> shown;  // call chains a full sample shows, or one being fetched will
    for (const auto& [rank, s] : latest)
        if (has_frames(s)) shown.insert(chain_signature(s));
    for (int rank : suspects) {
        const auto it = latest.find(rank);
        if (it == latest.end() || !digest_only(it->second) || fetch.size() >= limit) continue;
        if (std::count(fetch.begin(), fetch.end(), rank)) continue;
        fetch.push_back(rank);
        if (it->second.chain_digest != 0) shown.insert(it->second.chain_digest);
    }
    for (const auto& [rank, s] : latest) {  // ascending ranks: the lowest of each chain
        if (fetch.size() >= limit) break;
        if (!digest_only(s) || std::count(fetch.begin(), fetch.end(), rank)) continue;
        if (s.chain_digest != 0 && !shown.insert(s.chain_digest).second) continue;
        fetch.push_back(rank);
    }
    return fetch;
}

std::map<int, int> report_stack_twins(const std::map<int, StackSample>& latest) {
    std::map<uint64_t, int> shown_by;
    for (const auto& [rank, s] : latest)
        if (has_frames(s)) shown_by.emplace(chain_signature(s), rank);
    std::map<int, int> twins;
    for (const auto& [rank, s] : latest) {
        if (!digest_only(s) || s.chain_digest == 0) continue;
        if (auto it = shown_by.find(s.chain_digest); it != shown_by.end()) twins[rank] = it->second;
    }
    return twins;
}

}  // namespace jobsentry
