// The leader–agent protocol of multi-node jobs (docs/multi-node.md), pure:
// messages are JSON objects, each sent as a 4-byte big-endian length and the
// JSON text, never longer than kMaxMessageBytes. A reader that sees a longer
// length, or text that is not a JSON object, stops with an error: the peer
// is then dropped, never waited on.
//
//   agent  -> leader  {"type":"hello","credential":C}     C: munge credential
//   leader -> agent   {"type":"welcome","credential":C}   of hello_payload()
//   leader -> agent   {"type":"ranks","id":N}
//   agent  -> leader  {"type":"ranks","id":N,"ranks":[{"rank","pid","start"}]}
//                     or {"type":"ranks","id":N,"unchanged":true}: the list last sent on this connection
//   leader -> agent   {"type":"sample","id":N,"full":F,"ranks":[{"rank","pid","start"}]}
//   agent  -> leader  {"type":"samples","id":N,"samples":[sample_json()...]}
//                     with "link_ms":L, its node's link reading (link_reader.h), when the request
//                     had "link":true (every few rounds) and the node had one
//   agent  -> leader  {"type":"bye","why":W}: the job ended on the agent's node
//
// A compact sample (full=false) carries the rank's in/out of MPI, state, CPU
// ticks and the two stack digests (~120 bytes); full samples add the frames,
// asked for only by verification and the report.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include "hang/watch/discovery.h"
#include "hang/sampler/frame.h"

namespace jobsentry::wire {

constexpr uint32_t kMaxMessageBytes = 1u << 20;
constexpr size_t kMaxRanksPerMessage = 4096;
constexpr size_t kMaxFramesPerSample = 256;
constexpr size_t kMaxTextBytes = 512;  // function and module names, error texts
// A hello or welcome is a munge credential of a short payload (~300 bytes):
// until a peer is authenticated, it may not make the leader hold more.
constexpr uint32_t kMaxHelloBytes = 16384;

// The 4-byte length and the text of one message; "" when longer than max_bytes.
std::string encode(const nlohmann::json& message, uint32_t max_bytes = kMaxMessageBytes);

// Collects bytes as they arrive and hands out whole messages.
class Reader {
public:
    explicit Reader(uint32_t max_message_bytes = kMaxMessageBytes) : max_(max_message_bytes) {}
    void append(const char* data, size_t size) { buffer_.append(data, size); }
    // The next whole message, or nullopt (more bytes needed, or an error in *error).
    std::optional<nlohmann::json> next(std::string* error);
    size_t buffered() const { return buffer_.size(); }

    // Messages longer than this are an error from now on.
    void limit(uint32_t max_message_bytes) { max_ = max_message_bytes; }

private:
    std::string buffer_;
    uint32_t max_;
};

// What each side signs with munge: the role, the job and (agents) the node.
std::string hello_payload(const std::string& role, uint32_t job_id, const std::string& node);
// Checks a decoded credential: signed by expected_uid, the role and the job
// expected. Returns "" or why it is refused; *node gets the agent's node.
std::string check_hello(uid_t signer, const std::string& payload, uid_t expected_uid, const std::string& role,
                        uint32_t job_id, std::string* node);

// with_node: each entry names its node, as a relay's lists do (its subtree's ranks).
nlohmann::json ranks_json(const std::vector<RankProcess>& ranks, bool with_node = false);
// Ranks of one node, or of a relay's subtree: an entry without "node" is of `node`; one with it must
// name `node` or one of `below` (the nodes the peer speaks for besides its own, node_tree.h). At most
// kMaxRanksPerMessage per node spoken for. Malformed entries are an error (the whole message is refused).
std::optional<std::vector<RankProcess>> ranks_from_json(const nlohmann::json& list, const std::string& node,
                                                        std::string* error, const std::set<std::string>& below = {});
// A relay's per-node map ("unseen": why, "links": a link reading): an object whose keys are among
// `below` (the nodes it speaks for besides its own) and whose values are checked by take, which returns
// "" or what is wrong. Anything else is an error; nothing is taken then.
std::string node_map_from_json(const nlohmann::json& map, const std::set<std::string>& below,
                               const std::function<std::string(const std::string& node, const nlohmann::json& value)>& take);

// The id of a leader's request, echoed in the reply: the leader's ids are
// non-negative integers; anything else is answered as id 0 (never copied: a
// value nested 2^19 deep would be copied by recursion).
uint64_t request_id(const nlohmann::json& request);

// A samples reply's link reading: a finite number of ms in [0, kMaxLinkMs]; else nullopt and *error.
constexpr double kMaxLinkMs = 3.6e6;
std::optional<double> link_ms_from_json(const nlohmann::json& value, std::string* error);

// Whether a sample request asks for the node's link reading: only "link":true does.
bool sample_link(const nlohmann::json& request);

// Whether a sample request asks for full samples: only "full":true does;
// anything else (missing, not a boolean) asks for compact ones.
bool sample_full(const nlohmann::json& request);

// Whether a sample request asks for its compact samples packed: only "packed":true does (the leader's
// compact requests; an agent of an earlier release ignores it and answers with JSON objects).
bool sample_packed(const nlohmann::json& request);

// Whether a sample request asks for each sample's time to stop (StackSample::stop_seconds): only
// "stop_times":true does (an agent of an earlier release ignores it, and its samples' stop times are
// unknown: the slow verdict's on-CPU rates then leave them out).
bool sample_stop_times(const nlohmann::json& request);

// full=false leaves the frames out (compact_sample()).
nlohmann::json sample_json(int rank, const StackSample& sample, bool full, bool stop_times = false);

// A samples reply's samples: JSON objects in "samples" (sample_json), or, packed (compact only), one
// fixed record of kPackedSampleBytes per sample, base64 in "packed", with their texts (MPI call,
// error) once each in "strings". Packed, a compact sample is about half the bytes and is read without
// a JSON parser: a verification round of a 10,000-node job brings the leader 640,000 of them.
// stop_times: each known stop time goes with it, as "stop_us" (JSON) or in the record's eighth byte
// (packed: 1 + its 20-us steps, 254 at most, so 5 ms and longer read as 5.07 ms; 0: unknown).
constexpr size_t kPackedSampleBytes = 80;
void put_samples(nlohmann::json& reply, const std::vector<std::pair<int, StackSample>>& samples, bool full, bool packed,
                 bool stop_times);
std::optional<StackSample> sample_from_json(const nlohmann::json& j, int* rank, std::string* error);

// The samples of a "samples" reply (either form), by rank, judged as a whole: every sample well formed, of a rank
// that was asked of this agent (an agent speaks only for the ranks of its own node), each rank once.
// Anything else is an error naming the first fault, and nothing of the reply is taken: one sample
// about a rank it does not own makes all the agent says untrustworthy.
std::optional<std::map<int, StackSample>> samples_from_json(const nlohmann::json& reply, const std::set<int>& asked,
                                                            std::string* error);
// How big a message a peer speaking for `nodes` nodes may send: a node's bound times their number.
uint32_t max_message_bytes_for(size_t nodes);

}  // namespace jobsentry::wire
