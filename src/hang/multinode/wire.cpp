#include "hang/multinode/wire.h"

#include <algorithm>
#include <cmath>

#include "hang/model/progress.h"

namespace jobsentry::wire {
namespace {

std::string bounded(const std::string& text) { return text.size() > kMaxTextBytes ? text.substr(0, kMaxTextBytes) : text; }

// Reads an unsigned integer field of at most max; false when missing or out of range.
template <typename T>
bool get_uint(const nlohmann::json& j, const char* key, T max, T* out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return false;  // signed ints too, if not negative
    if (!it->is_number_unsigned() && it->get<int64_t>() < 0) return false;
    const uint64_t v = it->get<uint64_t>();
    if (v > static_cast<uint64_t>(max)) return false;
    *out = static_cast<T>(v);
    return true;
}

bool get_string(const nlohmann::json& j, const char* key, std::string* out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return false;
    *out = bounded(it->get<std::string>());
    return true;
}

constexpr const char* kStatuses[] = {"ok", "gone", "denied", "timeout", "busy", "error", "unreachable"};

}  // namespace

std::string encode(const nlohmann::json& message) {
    const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > kMaxMessageBytes) return {};
    const uint32_t n = static_cast<uint32_t>(text.size());
    std::string out;
    out.reserve(4 + n);
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xff));
    return out + text;
}

std::optional<nlohmann::json> Reader::next(std::string* error) {
    if (buffer_.size() < 4) return std::nullopt;
    uint32_t n = 0;
    for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(buffer_[i]);
    if (n > max_) {
        *error = "message of " + std::to_string(n) + " bytes (at most " + std::to_string(max_) + ")";
        return std::nullopt;
    }
    if (buffer_.size() < 4 + static_cast<size_t>(n)) return std::nullopt;
    nlohmann::json j = nlohmann::json::parse(buffer_.begin() + 4, buffer_.begin() + 4 + n, nullptr, false);
    buffer_.erase(0, 4 + static_cast<size_t>(n));
    if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) {
        *error = "a message that is not a JSON object with a type";
        return std::nullopt;
    }
    return j;
}

std::string hello_payload(const std::string& role, uint32_t job_id, const std::string& node) {
    return nlohmann::json{{"jobsentry", role}, {"job", job_id}, {"node", node}}.dump();
}

std::string check_hello(uid_t signer, const std::string& payload, uid_t expected_uid, const std::string& role,
                        uint32_t job_id, std::string* node) {
    if (signer != expected_uid)
        return "credential of uid " + std::to_string(signer) + ", not of uid " + std::to_string(expected_uid);
    auto j = nlohmann::json::parse(payload, nullptr, false);
    uint32_t job = 0;
    std::string said_role;
    if (j.is_discarded() || !j.is_object() || !get_string(j, "jobsentry", &said_role) ||
        !get_uint<uint32_t>(j, "job", UINT32_MAX, &job) || !get_string(j, "node", node))
        return "credential payload is not a jobsentry hello";
    if (said_role != role) return "a hello in the role " + said_role + ", not " + role;
    if (job != job_id) return "hello for job " + std::to_string(job) + ", not job " + std::to_string(job_id);
    return {};
}

nlohmann::json ranks_json(const std::vector<RankProcess>& ranks, bool with_node) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : ranks) {
        list.push_back({{"rank", r.rank}, {"pid", r.pid}, {"start", r.start_time}});
        if (with_node) list.back()["node"] = r.node;
    }
    return list;
}

std::optional<std::vector<RankProcess>> ranks_from_json(const nlohmann::json& list, const std::string& node,
                                                        std::string* error, const std::set<std::string>& below) {
    const size_t most = kMaxRanksPerMessage * (1 + below.size());
    if (!list.is_array() || list.size() > most) {
        *error = "rank list is not an array of at most " + std::to_string(most);
        return std::nullopt;
    }
    std::vector<RankProcess> out;
    for (const auto& e : list) {
        RankProcess r;
        unsigned rank = 0, pid = 0;
        if (!e.is_object() || !get_uint<unsigned>(e, "rank", 1u << 24, &rank) ||
            !get_uint<unsigned>(e, "pid", 1u << 22, &pid) || pid == 0 ||
            !get_uint<uint64_t>(e, "start", UINT64_MAX, &r.start_time)) {
            *error = "malformed rank entry";
            return std::nullopt;
        }
        r.rank = static_cast<int>(rank);
        r.pid = static_cast<pid_t>(pid);
        r.node = node;
        if (const auto n = e.find("node"); n != e.end()) {
            if (!n->is_string() || (*n != node && !below.count(n->get<std::string>()))) {
                *error = "a rank of " + (n->is_string() ? "node " + n->get<std::string>().substr(0, kMaxTextBytes) : "no node") +
                         ", which is not " + node + (below.empty() ? "" : " or below it");
                return std::nullopt;
            }
            r.node = n->get<std::string>();
        }
        out.push_back(r);
    }
    return out;
}

std::string node_map_from_json(const nlohmann::json& map, const std::set<std::string>& below,
                               const std::function<std::string(const std::string& node, const nlohmann::json& value)>& take) {
    if (!map.is_object() || map.size() > below.size()) return "a per-node map that is not an object of at most " +
                                                              std::to_string(below.size()) + " nodes";
    for (const auto& [node, value] : map.items()) {
        if (!below.count(node)) return "a per-node entry for " + node.substr(0, kMaxTextBytes) + ", which is not below it";
        if (std::string error = take(node, value); !error.empty()) return error;
    }
    return {};
}

uint32_t max_message_bytes_for(size_t nodes) {
    // 4096 nodes of 1 MiB would overflow; a relay's subtree that large is 4 GiB of JSON in any case.
    return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{kMaxMessageBytes} * std::max<size_t>(nodes, 1), 1ull << 31));
}

uint64_t request_id(const nlohmann::json& request) {
    uint64_t id = 0;
    return get_uint<uint64_t>(request, "id", UINT64_MAX, &id) ? id : 0;
}

bool sample_link(const nlohmann::json& request) {
    const auto it = request.find("link");
    return it != request.end() && it->is_boolean() && it->get<bool>();
}

bool sample_full(const nlohmann::json& request) {
    const auto it = request.find("full");
    return it != request.end() && it->is_boolean() && it->get<bool>();
}

nlohmann::json sample_json(int rank, const StackSample& s, bool full) {
    const StackSample c = full ? s : compact_sample(s);
    nlohmann::json j{{"rank", rank},
                     {"status", kStatuses[static_cast<int>(c.status)]},
                     {"in_mpi", c.in_mpi},
                     {"complete", c.complete},
                     {"state", std::string(1, c.state)},
                     {"cpu", c.cpu_ticks},
                     {"main_cpu", c.main_cpu_ticks},
                     {"main_user", c.main_user_ticks},
                     {"exact", exact_signature(c)},
                     {"progress", progress_signature(c)},
                     {"chain", chain_signature(c)},
                     {"mpi_call", bounded(outermost_mpi_call(c))}};
    if (c.sched_known) {
        j["main_run"] = c.main_run_ns;
        j["main_wait"] = c.main_wait_ns;
    }
    if (!c.error.empty()) j["error"] = bounded(c.error);
    if (full) {
        nlohmann::json frames = nlohmann::json::array();
        for (size_t i = 0; i < c.frames.size() && i < kMaxFramesPerSample; ++i) {
            const Frame& f = c.frames[i];
            frames.push_back({{"pc", f.pc}, {"fn", bounded(f.function)}, {"mod", bounded(f.module)}, {"mpi", f.mpi}});
        }
        j["frames"] = std::move(frames);
    }
    return j;
}

std::optional<StackSample> sample_from_json(const nlohmann::json& j, int* rank, std::string* error) {
    StackSample s;
    unsigned r = 0;
    std::string status, state;
    if (!j.is_object() || !get_uint<unsigned>(j, "rank", 1u << 24, &r) || !get_string(j, "status", &status) ||
        !get_string(j, "state", &state) || state.size() != 1 || !get_uint<uint64_t>(j, "cpu", UINT64_MAX, &s.cpu_ticks) ||
        !get_uint<uint64_t>(j, "exact", UINT64_MAX, &s.exact_digest) ||
        !get_uint<uint64_t>(j, "progress", UINT64_MAX, &s.progress_digest) || !get_string(j, "mpi_call", &s.mpi_call) ||
        !j.contains("in_mpi") || !j["in_mpi"].is_boolean()) {
        *error = "malformed sample";
        return std::nullopt;
    }
    // An agent of an earlier release sends no main_cpu: the whole process's
    // time then stands for it, as before.
    s.main_cpu_ticks = s.cpu_ticks;
    if (j.contains("main_cpu") && !get_uint<uint64_t>(j, "main_cpu", UINT64_MAX, &s.main_cpu_ticks)) {
        *error = "malformed sample";
        return std::nullopt;
    }
    // Nor main_user: all of the main thread's time counts as user time then, as before.
    s.main_user_ticks = s.main_cpu_ticks;
    if (j.contains("main_user") && !get_uint<uint64_t>(j, "main_user", UINT64_MAX, &s.main_user_ticks)) {
        *error = "malformed sample";
        return std::nullopt;
    }
    // Nor chain: its ranks' stacks are then fetched one by one for a hang's report (report_stacks.h).
    if (j.contains("chain") && !get_uint<uint64_t>(j, "chain", UINT64_MAX, &s.chain_digest)) {
        *error = "malformed sample";
        return std::nullopt;
    }
    // Nor main_run and main_wait (or a kernel without schedstat): no evidence of CPU starvation then.
    if (j.contains("main_run") || j.contains("main_wait")) {
        if (!get_uint<uint64_t>(j, "main_run", UINT64_MAX, &s.main_run_ns) ||
            !get_uint<uint64_t>(j, "main_wait", UINT64_MAX, &s.main_wait_ns)) {
            *error = "malformed sample";
            return std::nullopt;
        }
        s.sched_known = true;
    }
    // Likewise no "complete": its samples are taken as complete, as before.
    if (auto it = j.find("complete"); it != j.end()) {
        if (!it->is_boolean()) {
            *error = "malformed sample";
            return std::nullopt;
        }
        s.complete = it->get<bool>();
    }
    bool known = false;
    for (size_t i = 0; i < std::size(kStatuses); ++i)
        if (status == kStatuses[i]) {
            s.status = static_cast<SampleStatus>(i);
            known = true;
        }
    if (!known) {
        *error = "unknown sample status " + status;
        return std::nullopt;
    }
    *rank = static_cast<int>(r);
    s.state = state[0];
    s.in_mpi = j["in_mpi"].get<bool>();
    get_string(j, "error", &s.error);
    s.digest_only = true;
    if (auto it = j.find("frames"); it != j.end()) {
        if (!it->is_array() || it->size() > kMaxFramesPerSample) {
            *error = "malformed frames";
            return std::nullopt;
        }
        for (const auto& f : *it) {
            Frame frame;
            if (!f.is_object() || !get_uint<uint64_t>(f, "pc", UINT64_MAX, &frame.pc) ||
                !get_string(f, "fn", &frame.function) || !get_string(f, "mod", &frame.module) || !f.contains("mpi") ||
                !f["mpi"].is_boolean()) {
                *error = "malformed frame";
                return std::nullopt;
            }
            frame.mpi = f["mpi"].get<bool>();
            s.frames.push_back(std::move(frame));
        }
        // The frames are the truth when present; the digests must agree.
        s.digest_only = false;
    }
    return s;
}

std::optional<double> link_ms_from_json(const nlohmann::json& value, std::string* error) {
    if (value.is_number()) {
        const double ms = value.get<double>();
        if (std::isfinite(ms) && ms >= 0 && ms <= kMaxLinkMs) return ms;
    }
    *error = "bad link reading (a number of ms from 0 to " + std::to_string(static_cast<long>(kMaxLinkMs)) + " expected)";
    return std::nullopt;
}

std::optional<std::map<int, StackSample>> samples_from_json(const nlohmann::json& reply, const std::set<int>& asked,
                                                            std::string* error) {
    const auto list = reply.find("samples");
    const size_t most = std::max(kMaxRanksPerMessage, asked.size());  // a relay answers for its subtree
    if (reply.value("type", nlohmann::json()) != "samples" || list == reply.end() || !list->is_array() ||
        list->size() > most) {
        *error = "bad samples reply (an array of at most " + std::to_string(most) + " samples expected)";
        return std::nullopt;
    }
    std::map<int, StackSample> out;
    for (const auto& j : *list) {
        int rank = -1;
        auto s = sample_from_json(j, &rank, error);
        if (!s) return std::nullopt;
        if (!asked.count(rank)) {
            *error = "a sample of rank " + std::to_string(rank) +
                     ", which it was not asked for (an agent answers only for its own node's ranks)";
            return std::nullopt;
        }
        if (!out.emplace(rank, std::move(*s)).second) {
            *error = "two samples of rank " + std::to_string(rank) + " in one reply";
            return std::nullopt;
        }
    }
    return out;
}

}  // namespace jobsentry::wire
