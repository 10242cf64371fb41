// The leader–agent wire format (supervisor/agent/wire.h), as Connection::receive
// drives it: bytes appended to a wire::Reader as they arrive, whole messages
// taken out, then decoded by type as the leader (AgentHub) and the handshake
// do. The input is a byte stream of frames (4-byte big-endian length + JSON):
// oversized lengths, truncated and garbage frames come from the mutations.
#include <set>
#include <vector>

#include "hang/multinode/wire.h"
#include "fuzz_common.h"

using namespace jobsentry;
using nlohmann::json;

namespace {

struct Decoded {
    std::vector<json> messages;
    std::string error;  // the reader's error, which ends the stream (the peer is dropped)
    size_t left = 0;    // bytes of an incomplete frame still buffered
};

// Takes out every whole message, as Connection::receive does after each recv.
void drain(wire::Reader& reader, Decoded& out) {
    while (out.error.empty()) {
        auto m = reader.next(&out.error);
        if (!m) break;
        out.messages.push_back(std::move(*m));
    }
}

// chunk 0: the whole stream in one recv; k: k bytes per recv (1 = split at every byte).
Decoded decode(const std::string& bytes, size_t chunk, int copies) {
    wire::Reader reader;
    Decoded out;
    for (int c = 0; c < copies; ++c)
        for (size_t at = 0; at < bytes.size() && out.error.empty(); at += chunk ? chunk : bytes.size()) {
            reader.append(bytes.data() + at, std::min(chunk ? chunk : bytes.size(), bytes.size() - at));
            drain(reader, out);
        }
    out.left = reader.buffered();
    return out;
}

// What the leader and the agent make of each message once it is whole.
void interpret(const json& m) {
    std::string error, node;
    const std::string type = m["type"];
    wire::request_id(m);                         // the agent's reading of a request
    if (type == "sample") wire::sample_full(m);
    if (auto c = m.find("credential"); c != m.end() && c->is_string())
        wire::check_hello(0, c->get<std::string>(), 0, type == "hello" ? "agent" : "leader", 7, &node);
    if (auto r = m.find("ranks"); r != m.end()) {
        if (auto ranks = wire::ranks_from_json(*r, "n1", &error)) {
            // What the leader keeps, sent back, reads the same.
            auto again = wire::ranks_from_json(wire::ranks_json(*ranks), "n1", &error);
            FUZZ_CHECK(again && again->size() == ranks->size());
            for (size_t i = 0; i < ranks->size(); ++i)
                FUZZ_CHECK((*again)[i].rank == (*ranks)[i].rank && (*again)[i].pid == (*ranks)[i].pid &&
                           (*again)[i].start_time == (*ranks)[i].start_time);
        }
    }
    if (m.contains("packed")) {  // the leader's reading of packed compact samples (wire::put_samples)
        std::set<int> asked;
        for (int r = 0; r < 64; ++r) asked.insert(r);
        if (auto samples = wire::samples_from_json(m, asked, &error)) {
            std::vector<std::pair<int, StackSample>> list(samples->begin(), samples->end());
            json again{{"type", "samples"}};
            wire::put_samples(again, list, false, true, true);  // packed again, it reads the same
            auto back = wire::samples_from_json(again, asked, &error);
            FUZZ_CHECK(back && back->size() == samples->size());
            for (const auto& [rank, s] : *samples) {
                const StackSample& b = back->at(rank);
                FUZZ_CHECK(b.status == s.status && b.state == s.state && b.cpu_ticks == s.cpu_ticks &&
                           b.progress_digest == s.progress_digest && b.mpi_call == s.mpi_call && b.error == s.error &&
                           b.stop_seconds == s.stop_seconds);
                FUZZ_CHECK(s.mpi_call.size() <= wire::kMaxTextBytes && s.error.size() <= wire::kMaxTextBytes);
            }
        }
    }
    if (auto s = m.find("samples"); s != m.end() && s->is_array() && s->size() <= wire::kMaxRanksPerMessage)
        for (const auto& j : *s) {
            int rank = -1;
            auto sample = wire::sample_from_json(j, &rank, &error);
            if (!sample) continue;
            FUZZ_CHECK(rank >= 0 && sample->frames.size() <= wire::kMaxFramesPerSample);
            FUZZ_CHECK(sample->mpi_call.size() <= wire::kMaxTextBytes && sample->error.size() <= wire::kMaxTextBytes);
        }
}

}  // namespace

FUZZ_TEXT_TARGET(bytes) {
    const Decoded whole = decode(bytes, 0, 1);
    // However the stream is cut into recv()s, the same messages and the same verdict.
    for (size_t chunk : {size_t(1), size_t(3), size_t(4), size_t(5)}) {
        const Decoded cut = decode(bytes, chunk, 1);
        FUZZ_CHECK(cut.messages == whole.messages);
        FUZZ_CHECK(cut.error.empty() == whole.error.empty());
        if (whole.error.empty()) FUZZ_CHECK(cut.left == whole.left);
    }
    // A duplicated stream of whole frames is read twice over.
    if (whole.error.empty() && whole.left == 0) {
        const Decoded twice = decode(bytes, 0, 2);
        FUZZ_CHECK(twice.error.empty() && twice.messages.size() == 2 * whole.messages.size());
    }
    FUZZ_CHECK(whole.left < 4 + static_cast<size_t>(wire::kMaxMessageBytes));
    for (const json& m : whole.messages) {
        FUZZ_CHECK(m.is_object() && m["type"].is_string());
        // Re-encoded, a message reads back as itself.
        const std::string frame = wire::encode(m);
        FUZZ_CHECK(!frame.empty());
        const Decoded back = decode(frame, 0, 1);
        FUZZ_CHECK(back.error.empty() && back.messages.size() == 1 && back.messages[0] == m);
        interpret(m);
    }
}
