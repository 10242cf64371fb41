#include "hang/multinode/relay.h"

#include "hang/multinode/wire.h"

namespace jobsentry {
namespace {

std::vector<std::string> names_of(const std::vector<size_t>& nodes, const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (size_t n : nodes) out.push_back(names.at(n));
    return out;
}

std::map<std::string, std::vector<std::string>> subtrees(const NodeTree& tree, size_t own,
                                                         const std::vector<std::string>& names) {
    std::map<std::string, std::vector<std::string>> out;
    for (size_t child : tree.children(own)) out[names.at(child)] = names_of(tree.below(child), names);
    return out;
}

}  // namespace

Relay::Relay(uint32_t job_id, uid_t trusted_uid, const NodeTree& tree, size_t own, const std::vector<std::string>& names)
    : own_(names.at(own)),
      hub_(job_id, trusted_uid, names_of(tree.children(own), names), reply_seconds_for_height(tree.height(own)),
           subtrees(tree, own, names)) {
    for (size_t n : tree.below(own)) below_.insert(names.at(n));
}

nlohmann::json Relay::ranks(const std::vector<RankProcess>& own) {
    std::vector<RankProcess> all = own;
    for (auto& r : all) r.node = own_;
    for (auto& r : hub_.refresh_ranks()) all.push_back(std::move(r));
    nlohmann::json unseen = nlohmann::json::object();
    for (const auto& [node, why] : hub_.unseen_nodes()) unseen[node] = why;
    return {{"ranks", wire::ranks_json(all, true)}, {"unseen", std::move(unseen)}};
}

void Relay::start(const std::vector<RankProcess>& ranks, bool full, bool links) {
    pending_ = hub_.start_sample(ranks, full, links);
}

void Relay::finish(std::vector<std::pair<int, StackSample>>& samples, nlohmann::json* links) {
    std::map<std::string, double> link_ms;
    for (auto& [rank, s] : hub_.finish_sample(pending_, links ? &link_ms : nullptr))
        samples.emplace_back(rank, std::move(s));
    pending_ = {};
    if (links)
        for (const auto& [node, ms] : link_ms) (*links)[node] = ms;
}

}  // namespace jobsentry
