#include "hang/multinode/wire.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

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

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::string& bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = 0;
        for (size_t k = 0; k < 3; ++k) v = v << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (size_t k = 0; k < 4; ++k) out.push_back(k <= n ? kBase64[(v >> (18 - 6 * k)) & 63] : '=');
    }
    return out;
}

// Strict: whole groups of 4, the alphabet above, '=' only as the last one or two characters.
std::optional<std::string> base64_decode(const std::string& text) {
    static const auto table = [] {
        std::array<int8_t, 256> t{};
        t.fill(-1);
        for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kBase64[i])] = static_cast<int8_t>(i);
        return t;
    }();
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const size_t pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k) {
            const int8_t d = k < 4 - pad ? table[static_cast<unsigned char>(text[i + k])] : 0;
            if (d < 0) return std::nullopt;
            v = v << 6 | static_cast<uint32_t>(d);
        }
        for (size_t k = 0; k < 3 - pad; ++k) out.push_back(static_cast<char>((v >> (16 - 8 * k)) & 0xff));
    }
    return out;
}

void put_le(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get_le(const char* p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(p[i]);
    return v;
}

// Packed record flags.
constexpr unsigned kInMpi = 1, kComplete = 2, kSchedKnown = 4;

}  // namespace

std::string encode(const nlohmann::json& message, uint32_t max_bytes) {
    const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > max_bytes) return {};
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

bool sample_stop_times(const nlohmann::json& request) {
    const auto it = request.find("stop_times");
    return it != request.end() && it->is_boolean() && it->get<bool>();
}

namespace {
constexpr double kStopStepSeconds = 20e-6;  // a packed stop time's unit
constexpr uint64_t kMaxStopMicros = 60'000'000;  // a "stop_us" longer than a minute is malformed

unsigned char packed_stop(double seconds) {
    if (!(seconds > 0)) return 0;
    return static_cast<unsigned char>(1 + std::min(253.0, std::floor(seconds / kStopStepSeconds)));
}
}  // namespace

nlohmann::json sample_json(int rank, const StackSample& s, bool full, bool stop_times) {
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
    if (stop_times && c.stop_seconds > 0)
        j["stop_us"] = std::min<uint64_t>(kMaxStopMicros, static_cast<uint64_t>(c.stop_seconds * 1e6 + 0.5));
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

bool sample_packed(const nlohmann::json& request) {
    const auto it = request.find("packed");
    return it != request.end() && it->is_boolean() && it->get<bool>();
}

void put_samples(nlohmann::json& reply, const std::vector<std::pair<int, StackSample>>& samples, bool full, bool packed,
                 bool stop_times) {
    if (full || !packed) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& [rank, s] : samples) list.push_back(sample_json(rank, s, full, stop_times));
        reply["samples"] = std::move(list);
        return;
    }
    std::string records;
    records.reserve(samples.size() * kPackedSampleBytes);
    nlohmann::json strings = nlohmann::json::array();
    std::map<std::string, uint32_t> index;
    auto text = [&](const std::string& t) {
        auto [it, added] = index.emplace(bounded(t), static_cast<uint32_t>(index.size()));
        if (added) strings.push_back(it->first);
        return it->second;
    };
    for (const auto& [rank, full_sample] : samples) {
        const StackSample c = compact_sample(full_sample);
        put_le(records, static_cast<uint32_t>(rank), 4);
        put_le(records, static_cast<uint64_t>(c.status), 1);
        put_le(records, static_cast<unsigned char>(c.state), 1);
        put_le(records, (c.in_mpi ? kInMpi : 0) | (c.complete ? kComplete : 0) | (c.sched_known ? kSchedKnown : 0), 1);
        put_le(records, stop_times ? packed_stop(c.stop_seconds) : 0, 1);
        for (uint64_t v : {c.cpu_ticks, c.main_cpu_ticks, c.main_user_ticks, c.exact_digest, c.progress_digest,
                           c.chain_digest, c.sched_known ? c.main_run_ns : 0, c.sched_known ? c.main_wait_ns : 0})
            put_le(records, v, 8);
        put_le(records, text(c.mpi_call), 4);
        put_le(records, text(c.error), 4);
    }
    reply["packed"] = base64_encode(records);
    reply["strings"] = std::move(strings);
}

namespace {

// The samples of a packed reply (put_samples), each well formed; nullopt and *error at the first fault.
std::optional<std::vector<std::pair<int, StackSample>>> unpack_samples(const nlohmann::json& reply, size_t most,
                                                                       std::string* error) {
    const auto packed = reply.find("packed");
    const auto strings = reply.find("strings");
    std::optional<std::string> bytes;
    if (packed->is_string()) bytes = base64_decode(packed->get<std::string>());
    if (!bytes || bytes->size() % kPackedSampleBytes != 0 || bytes->size() / kPackedSampleBytes > most ||
        strings == reply.end() || !strings->is_array() || strings->size() > 2 * (bytes->size() / kPackedSampleBytes) + 1) {
        *error = "bad packed samples (records of " + std::to_string(kPackedSampleBytes) + " bytes in base64, at most " +
                 std::to_string(most) + ", and their strings, expected)";
        return std::nullopt;
    }
    std::vector<std::string> texts;
    for (const auto& t : *strings) {
        if (!t.is_string()) {
            *error = "bad packed samples (a string that is not text)";
            return std::nullopt;
        }
        texts.push_back(bounded(t.get<std::string>()));
    }
    std::vector<std::pair<int, StackSample>> out;
    for (size_t at = 0; at < bytes->size(); at += kPackedSampleBytes) {
        const char* p = bytes->data() + at;
        const uint64_t rank = get_le(p, 4), status = get_le(p + 4, 1), flags = get_le(p + 6, 1);
        const uint64_t mpi_call = get_le(p + 72, 4), failure = get_le(p + 76, 4);
        if (rank > (1u << 24) || status >= std::size(kStatuses) || (flags & ~uint64_t{7}) != 0 ||
            mpi_call >= texts.size() || failure >= texts.size()) {
            *error = "malformed sample";
            return std::nullopt;
        }
        StackSample s;
        s.status = static_cast<SampleStatus>(status);
        s.state = p[5];
        s.in_mpi = flags & kInMpi;
        s.complete = flags & kComplete;
        s.sched_known = flags & kSchedKnown;
        // Mid-step; 0: unknown (not asked for, or an agent of an earlier release).
        if (const auto stop = static_cast<unsigned char>(p[7]); stop > 0)
            s.stop_seconds = (stop - 0.5) * kStopStepSeconds;
        uint64_t* fields[] = {&s.cpu_ticks,       &s.main_cpu_ticks, &s.main_user_ticks, &s.exact_digest,
                              &s.progress_digest, &s.chain_digest,   &s.main_run_ns,     &s.main_wait_ns};
        for (size_t k = 0; k < std::size(fields); ++k) *fields[k] = get_le(p + 8 + 8 * k, 8);
        s.mpi_call = texts[mpi_call];
        s.error = texts[failure];
        s.digest_only = true;
        out.emplace_back(static_cast<int>(rank), std::move(s));
    }
    return out;
}

}  // namespace

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
    // Nor stop_us (not asked for, or an agent of an earlier release): the stop time is unknown then.
    if (j.contains("stop_us")) {
        uint64_t micros = 0;
        if (!get_uint<uint64_t>(j, "stop_us", kMaxStopMicros, &micros)) {
            *error = "malformed sample";
            return std::nullopt;
        }
        s.stop_seconds = static_cast<double>(micros) / 1e6;
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
    const size_t most = std::max(kMaxRanksPerMessage, asked.size());  // a relay answers for its subtree
    std::vector<std::pair<int, StackSample>> samples;
    const auto list = reply.find("samples");
    if (reply.value("type", nlohmann::json()) != "samples" || (list != reply.end()) == reply.contains("packed")) {
        *error = "bad samples reply (\"samples\" or \"packed\" expected, not both)";
        return std::nullopt;
    }
    if (list == reply.end()) {
        auto unpacked = unpack_samples(reply, most, error);
        if (!unpacked) return std::nullopt;
        samples = std::move(*unpacked);
    } else {
        if (!list->is_array() || list->size() > most) {
            *error = "bad samples reply (an array of at most " + std::to_string(most) + " samples expected)";
            return std::nullopt;
        }
        for (const auto& j : *list) {
            int rank = -1;
            auto s = sample_from_json(j, &rank, error);
            if (!s) return std::nullopt;
            samples.emplace_back(rank, std::move(*s));
        }
    }
    std::map<int, StackSample> out;
    for (auto& [rank, s] : samples) {
        if (!asked.count(rank)) {
            *error = "a sample of rank " + std::to_string(rank) +
                     ", which it was not asked for (an agent answers only for its own node's ranks)";
            return std::nullopt;
        }
        if (!out.emplace(rank, std::move(s)).second) {
            *error = "two samples of rank " + std::to_string(rank) + " in one reply";
            return std::nullopt;
        }
    }
    return out;
}

}  // namespace jobsentry::wire
