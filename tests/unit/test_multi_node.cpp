// The pure parts of multi-node jobs: the leader–agent wire format and its
// bounds, the hello check, the port sequence, node names from cgroups.
#include "catch_compat.hpp"

#include <functional>
#include <set>

#include "hang/multinode/wire.h"
#include "slurm/job_cgroup.h"
#include "hang/model/progress.h"
#include "slurm/plugin/policy.h"
#include "slurm/supervise_options.h"

using namespace jobsentry;

namespace {

std::vector<nlohmann::json> read_all(const std::string& bytes, size_t chunk, std::string* error) {
    wire::Reader reader;
    std::vector<nlohmann::json> out;
    for (size_t at = 0; at < bytes.size(); at += chunk) {
        reader.append(bytes.data() + at, std::min(chunk, bytes.size() - at));
        while (auto m = reader.next(error)) out.push_back(*m);
        if (!error->empty()) break;
    }
    return out;
}

StackSample sample_in_allreduce() {
    StackSample s;
    s.status = SampleStatus::ok;
    s.in_mpi = true;
    s.state = 'S';
    s.cpu_ticks = 1234;
    s.main_cpu_ticks = 1200;
    s.main_user_ticks = 1100;
    s.sched_known = true;
    s.main_run_ns = 12000000000;
    s.main_wait_ns = 3400000000;
    s.frames = {{0x10, "poll", "/lib/libc.so.6", false},
                {0x20, "PMPI_Allreduce", "/lib/libmpi.so.40", true},
                {0x30, "solve", "/home/u/app", false},
                {0x40, "main", "/home/u/app", false}};
    return s;
}

}  // namespace

TEST_CASE("messages survive any split of the byte stream, in order") {
    const std::string bytes = wire::encode({{"type", "ranks"}, {"id", 1}}) +
                              wire::encode({{"type", "sample"}, {"id", 2}, {"ranks", nlohmann::json::array()}});
    for (size_t chunk : {1, 3, 4, 7, 1000}) {
        std::string error;
        auto messages = read_all(bytes, chunk, &error);
        CHECK(error.empty());
        REQUIRE(messages.size() == 2);
        CHECK(messages[0]["id"] == 1);
        CHECK(messages[1]["type"] == "sample");
    }
}

TEST_CASE("a message longer than the bound or not a typed JSON object is an error, not a wait") {
    std::string error;
    wire::Reader reader;
    const char huge[4] = {0x7f, 0, 0, 0};  // announces 2 GiB
    reader.append(huge, 4);
    CHECK(!reader.next(&error));
    CHECK(error.find("at most") != std::string::npos);

    std::string garbage = std::string("\0\0\0\5", 4) + "hello";
    error.clear();
    CHECK(read_all(garbage, 100, &error).empty());
    CHECK(error.find("not a JSON object") != std::string::npos);

    error.clear();
    CHECK(read_all(wire::encode({{"id", 3}}), 100, &error).empty());  // no type
    CHECK(!error.empty());
    CHECK(wire::encode({{"type", std::string(wire::kMaxMessageBytes, 'x')}}).empty());
}

TEST_CASE("a message nested as deep as the bound allows is read and dropped, the stack intact") {
    // The leader parses the first message of anyone who connects before any
    // credential is checked: 2^19 nested arrays must not exhaust its stack
    // (nlohmann parses and destroys without recursion; copies and == recurse,
    // so the readers below never copy a value they did not check).
    const size_t depth = wire::kMaxMessageBytes / 2 - 16;
    const std::string deep = std::string(depth, '[') + std::string(depth, ']');
    const std::string half = std::string(depth / 2, '[') + std::string(depth / 2, ']');
    for (const std::string& text : {deep, "{\"type\":\"sample\",\"id\":" + half + ",\"full\":" + half + "}"}) {
        const uint32_t n = static_cast<uint32_t>(text.size());
        const char length[4] = {char(n >> 24), char((n >> 16) & 0xff), char((n >> 8) & 0xff), char(n & 0xff)};
        wire::Reader reader;
        reader.append(length, 4);
        reader.append(text.data(), text.size());
        std::string error, ranks_error;
        auto m = reader.next(&error);
        if (text == deep) {
            CHECK(!m);
            CHECK(error.find("not a JSON object") != std::string::npos);
            continue;
        }
        REQUIRE(m);
        CHECK(wire::request_id(*m) == 0);  // the agent's reading of it
        CHECK_FALSE(wire::sample_full(*m));
        CHECK_FALSE(wire::ranks_from_json((*m)["id"], "n1", &ranks_error));
    }
    CHECK(wire::request_id({{"type", "ranks"}, {"id", 42}}) == 42);
    CHECK(wire::request_id({{"type", "ranks"}, {"id", -1}}) == 0);
}

TEST_CASE("a compact sample carries the digests the model needs, not the frames") {
    const StackSample full = sample_in_allreduce();
    const nlohmann::json j = wire::sample_json(5, full, false);
    CHECK(!j.contains("frames"));
    CHECK(j.dump().size() < 300);  // a few hundred bytes per rank and round, frames or not
    int rank = -1;
    std::string error;
    auto back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK(rank == 5);
    CHECK(back->digest_only);
    CHECK(back->frames.empty());
    CHECK(back->in_mpi);
    CHECK(back->state == 'S');
    CHECK(back->cpu_ticks == 1234);
    CHECK(back->main_cpu_ticks == 1200);
    CHECK(back->main_user_ticks == 1100);
    CHECK(back->sched_known);
    CHECK(back->main_run_ns == 12000000000u);
    CHECK(back->main_wait_ns == 3400000000u);
    CHECK(progress_signature(*back) == progress_signature(full.frames));
    CHECK(exact_signature(*back) == exact_signature(full.frames));
    CHECK(outermost_mpi_call(*back) == "PMPI_Allreduce");
}

TEST_CASE("an earlier agent sends no main_user: the main thread's whole time counts as user time") {
    nlohmann::json j = wire::sample_json(4, sample_in_allreduce(), false);
    j.erase("main_user");
    int rank = -1;
    std::string error;
    auto back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK(back->main_user_ticks == 1200);
    j["main_user"] = "many";
    CHECK_FALSE(wire::sample_from_json(j, &rank, &error));
    CHECK(error == "malformed sample");
}

TEST_CASE("an earlier agent or a kernel without schedstat sends no run-queue wait: no starvation evidence") {
    StackSample without = sample_in_allreduce();
    without.sched_known = false;
    nlohmann::json j = wire::sample_json(4, without, false);
    CHECK(!j.contains("main_wait"));
    int rank = -1;
    std::string error;
    auto back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK_FALSE(back->sched_known);
    j["main_run"] = 5;  // one without the other
    CHECK_FALSE(wire::sample_from_json(j, &rank, &error));
    j["main_wait"] = -3;
    CHECK_FALSE(wire::sample_from_json(j, &rank, &error));
    CHECK(error == "malformed sample");
}

TEST_CASE("a sample's stop time crosses the wire only when asked for; out of range it is refused") {
    StackSample taken = sample_in_allreduce();
    taken.stop_seconds = 312e-6;
    CHECK(!wire::sample_json(4, taken, false).contains("stop_us"));  // not asked: an earlier leader's request
    CHECK(wire::sample_stop_times({{"type", "sample"}, {"stop_times", true}}));
    CHECK_FALSE(wire::sample_stop_times({{"type", "sample"}, {"stop_times", "yes"}}));
    nlohmann::json j = wire::sample_json(4, taken, false, true);
    CHECK(j["stop_us"] == 312);
    int rank = -1;
    std::string error;
    auto back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK(back->stop_seconds == Approx(312e-6));
    j.erase("stop_us");  // an earlier agent: unknown
    back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK(back->stop_seconds == 0);
    for (const nlohmann::json& bad : {nlohmann::json(-1), nlohmann::json(61'000'000), nlohmann::json("fast")}) {
        j["stop_us"] = bad;
        CHECK_FALSE(wire::sample_from_json(j, &rank, &error));
        CHECK(error == "malformed sample");
    }
}

TEST_CASE("whether the unwind was complete crosses the wire; an earlier agent's samples count as complete") {
    StackSample astray = sample_in_allreduce();
    astray.complete = false;
    int rank = -1;
    std::string error;
    nlohmann::json j = wire::sample_json(3, astray, false);
    auto back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK_FALSE(back->complete);
    j.erase("complete");
    back = wire::sample_from_json(j, &rank, &error);
    REQUIRE(back);
    CHECK(back->complete);
    j["complete"] = "yes";
    CHECK(!wire::sample_from_json(j, &rank, &error));
}

TEST_CASE("a full sample brings its frames back") {
    const StackSample full = sample_in_allreduce();
    int rank = -1;
    std::string error;
    auto back = wire::sample_from_json(wire::sample_json(2, full, true), &rank, &error);
    REQUIRE(back);
    CHECK(!back->digest_only);
    REQUIRE(back->frames.size() == 4);
    CHECK(back->frames[1].function == "PMPI_Allreduce");
    CHECK(back->frames[1].mpi);
    CHECK(back->frames[3].pc == 0x40);
    CHECK(progress_signature(*back) == progress_signature(full.frames));
}

TEST_CASE("malformed samples and rank lists are refused whole") {
    int rank = -1;
    std::string error;
    nlohmann::json j = wire::sample_json(1, sample_in_allreduce(), false);
    for (const char* key : {"rank", "status", "state", "cpu", "exact", "progress", "in_mpi"}) {
        nlohmann::json broken = j;
        broken.erase(key);
        CHECK(!wire::sample_from_json(broken, &rank, &error));
    }
    nlohmann::json bad_status = j;
    bad_status["status"] = "fine";
    CHECK(!wire::sample_from_json(bad_status, &rank, &error));
    nlohmann::json negative = j;
    negative["rank"] = -1;
    CHECK(!wire::sample_from_json(negative, &rank, &error));

    CHECK(wire::ranks_from_json(nlohmann::json::parse(R"([{"rank":0,"pid":10,"start":5}])"), "n2", &error)->at(0).node ==
          "n2");
    CHECK(!wire::ranks_from_json(nlohmann::json::parse(R"([{"rank":0,"pid":0,"start":5}])"), "n2", &error));
    CHECK(!wire::ranks_from_json(nlohmann::json::parse(R"([{"rank":"0","pid":10,"start":5}])"), "n2", &error));
    CHECK(!wire::ranks_from_json(nlohmann::json::parse(R"({"rank":0})"), "n2", &error));
}

TEST_CASE("a samples reply is taken whole, only when it speaks of the ranks asked of its agent, each once") {
    auto reply = [](std::vector<int> ranks) {
        nlohmann::json r{{"type", "samples"}, {"id", 3}, {"samples", nlohmann::json::array()}};
        for (int rank : ranks) r["samples"].push_back(wire::sample_json(rank, sample_in_allreduce(), false));
        return r;
    };
    std::string error;
    auto taken = wire::samples_from_json(reply({4, 5}), {4, 5, 6}, &error);
    REQUIRE(taken);
    CHECK(taken->size() == 2);  // a rank not answered for is the caller's "unreachable"
    CHECK(taken->at(5).in_mpi);
    CHECK(wire::samples_from_json(reply({}), {}, &error)->empty());  // a link-only request's answer

    // Another node's rank: the whole reply is refused, naming it.
    CHECK_FALSE(wire::samples_from_json(reply({4, 9}), {4, 5}, &error));
    CHECK(error == "a sample of rank 9, which it was not asked for (an agent answers only for its own node's ranks)");
    CHECK_FALSE(wire::samples_from_json(reply({4, 4}), {4, 5}, &error));
    CHECK(error == "two samples of rank 4 in one reply");
    nlohmann::json broken = reply({4, 5});
    broken["samples"][1].erase("cpu");
    CHECK_FALSE(wire::samples_from_json(broken, {4, 5}, &error));
    CHECK(error == "malformed sample");
    nlohmann::json not_samples = reply({4});
    not_samples["type"] = "ranks";
    CHECK_FALSE(wire::samples_from_json(not_samples, {4}, &error));
    CHECK(error.rfind("bad samples reply (", 0) == 0);
    not_samples = reply({4});
    not_samples["samples"] = "all fine";
    CHECK_FALSE(wire::samples_from_json(not_samples, {4}, &error));
}

TEST_CASE("a sample request is full only with \"full\":true; a malformed one is compact, never a throw") {
    using nlohmann::json;
    CHECK(wire::sample_full(json{{"type", "sample"}, {"full", true}}));
    CHECK_FALSE(wire::sample_full(json{{"type", "sample"}, {"full", false}}));
    CHECK_FALSE(wire::sample_full(json{{"type", "sample"}}));
    CHECK_FALSE(wire::sample_full(json{{"type", "sample"}, {"full", "yes"}}));  // json::value threw here
    CHECK_FALSE(wire::sample_full(json{{"type", "sample"}, {"full", 1}}));
    CHECK(wire::sample_link(json{{"type", "sample"}, {"link", true}}));  // the node's link reading too
    CHECK_FALSE(wire::sample_link(json{{"type", "sample"}}));
    CHECK_FALSE(wire::sample_link(json{{"type", "sample"}, {"link", "yes"}}));
}

TEST_CASE("a link reading is a bounded number of ms; anything else is refused with what is accepted") {
    using nlohmann::json;
    std::string error;
    CHECK(wire::link_ms_from_json(json(0.35), &error) == Approx(0.35));
    CHECK(wire::link_ms_from_json(json(0), &error) == Approx(0));
    for (const json& bad : {json(-1), json(4e6), json("0.3"), json(nullptr), json::array({1}), json(true)}) {
        error.clear();
        CHECK_FALSE(wire::link_ms_from_json(bad, &error));
        CHECK(error == "bad link reading (a number of ms from 0 to 3600000 expected)");
    }
}

TEST_CASE("a hello is accepted only from the trusted uid, in its role, for its job") {
    std::string node;
    const std::string agent = wire::hello_payload("agent", 42, "n2");
    CHECK(wire::check_hello(0, agent, 0, "agent", 42, &node).empty());
    CHECK(node == "n2");
    CHECK(wire::check_hello(1001, agent, 0, "agent", 42, &node).find("uid 1001") != std::string::npos);
    CHECK(wire::check_hello(0, agent, 0, "agent", 43, &node).find("job 42") != std::string::npos);
    CHECK(!wire::check_hello(0, agent, 0, "leader", 42, &node).empty());
    CHECK(!wire::check_hello(0, "not json", 0, "agent", 42, &node).empty());
}

TEST_CASE("leaders and agents try the same ports, starting at the job's own") {
    auto ports = parse_port_range("7100-7199");
    REQUIRE(ports);
    CHECK(ports->first == 7100);
    CHECK(ports->count == 100);
    CHECK(to_string(*ports) == "7100-7199");
    auto seq = leader_port_sequence(*ports, 250);
    REQUIRE(seq.size() == kLeaderPortTries);
    CHECK(seq[0] == 7150);
    CHECK(seq[1] == 7151);
    auto wrap = leader_port_sequence(*ports, 199);
    CHECK(wrap[0] == 7199);
    CHECK(wrap[1] == 7100);
    CHECK(leader_port_sequence(*parse_port_range("8000-8002"), 7).size() == 3);
    for (const char* bad : {"", "7100", "7100-", "99-200", "7200-7100", "7100-70000", "a-b", "7100-7199-7200"})
        CHECK(!parse_port_range(bad));
}

TEST_CASE("a bad leader_ports argument disables the plugin with a clear message") {
    PolicyParse p = parse_site_policy({"supervisor=/opt/js/bin/jobsentry", "leader_ports=80-90"}, "/x");
    CHECK(p.error.find("leader_ports=80-90") != std::string::npos);
    CHECK(p.error.find("1024-65535") != std::string::npos);
    PolicyParse ok = parse_site_policy({"supervisor=/opt/js/bin/jobsentry", "leader_ports=9000-9009"}, "/x");
    CHECK(ok.error.empty());
    CHECK(ok.policy.leader_ports.first == 9000);
    auto argv = agent_argv(ok.policy, 42, 2);
    std::vector<std::string> expected{"/opt/js/bin/jobsentry", "agent", "--job-id", "42", "--node-index", "2",
                                      "--leader-ports", "9000-9009", "--fan-in", "32",
                                      "--pid-file", "/run/jobsentry/job_42.node2.pid"};
    CHECK(argv == expected);
    CHECK(supervisor_stem(42, 0) == "job_42");
    CHECK(supervisor_stem(42, 3) == "job_42.node3");
}

TEST_CASE("the supervise command refuses a malformed --leader-ports") {
    SuperviseParse p = parse_supervise_options({"--job-id", "5", "--leader-ports", "1-2"});
    CHECK(p.error.find("--leader-ports 1-2") != std::string::npos);
    CHECK(parse_supervise_options({"--job-id", "5", "--leader-ports", "7000-7001"}).options.leader_ports.count == 2);
}

TEST_CASE("the node is read from a per-node Slurm cgroup path") {
    CHECK(node_of_cgroup_text("12:freezer:/slurm_n2/uid_1001/job_42/step_extern\n3:cpu:/\n") == "n2");
    CHECK(node_of_cgroup_text("12:freezer:/slurm/uid_1001/job_42/step_0\n").empty());
    CHECK(node_of_cgroup_text("12:freezer:/\n").empty());
}

TEST_CASE("a reader's limit applies to the next message's length") {
    wire::Reader reader(100);
    const std::string small = wire::encode({{"type", "x"}});
    reader.append(small.data(), small.size());
    std::string error;
    REQUIRE(reader.next(&error));
    const std::string large = wire::encode({{"type", "x"}, {"pad", std::string(200, 'a')}});
    reader.append(large.data(), large.size());
    CHECK_FALSE(reader.next(&error));
    CHECK(error.find("at most 100") != std::string::npos);
    wire::Reader raised(100);
    raised.limit(wire::kMaxMessageBytes);
    raised.append(large.data(), large.size());
    error.clear();
    CHECK(raised.next(&error));
}

namespace {
const StackSample& samples_by_rank(const std::vector<std::pair<int, StackSample>>& samples, int rank) {
    for (const auto& [r, s] : samples)
        if (r == rank) return s;
    throw std::out_of_range("no sample of rank " + std::to_string(rank));
}
}  // namespace

TEST_CASE("packed compact samples read back as the JSON ones do, in half the bytes") {
    std::vector<std::pair<int, StackSample>> samples;
    for (int rank = 0; rank < 64; ++rank) {
        StackSample s = sample_in_allreduce();
        s.cpu_ticks += static_cast<uint64_t>(rank);
        s.complete = rank % 3 != 0;
        s.sched_known = rank % 5 != 0;
        // Stop times: unknown, on the CPU (tens of us), on a run queue (ms), and past the packed range.
        s.stop_seconds = rank % 4 == 0 ? 0 : rank % 4 == 1 ? 37e-6 : rank % 4 == 2 ? 2.5e-3 : 0.2;
        if (rank % 7 == 0) {
            s.status = rank % 2 ? SampleStatus::unreachable : SampleStatus::timeout;
            s.state = 'D';
            s.in_mpi = false;
            s.error = "node agent on n3 lost: closed by the peer";
            s.frames.clear();
        }
        samples.emplace_back(rank * 10, s);
    }
    std::set<int> asked;
    for (const auto& [rank, s] : samples) asked.insert(rank);
    nlohmann::json packed{{"type", "samples"}, {"id", 1}}, plain{{"type", "samples"}, {"id", 1}};
    wire::put_samples(packed, samples, false, true, true);
    wire::put_samples(plain, samples, false, false, true);
    CHECK(packed.contains("packed"));
    CHECK(!packed.contains("samples"));
    CHECK(packed.dump().size() * 2 < plain.dump().size() * 1.2);  // about half
    std::string error;
    auto a = wire::samples_from_json(packed, asked, &error);
    INFO(error);
    REQUIRE(a);
    auto b = wire::samples_from_json(plain, asked, &error);
    REQUIRE(b);
    REQUIRE(a->size() == 64);
    for (const auto& [rank, s] : *b) {
        const StackSample& p = a->at(rank);
        CHECK(p.status == s.status);
        CHECK(p.state == s.state);
        CHECK(p.in_mpi == s.in_mpi);
        CHECK(p.complete == s.complete);
        CHECK(p.sched_known == s.sched_known);
        CHECK(p.cpu_ticks == s.cpu_ticks);
        CHECK(p.main_cpu_ticks == s.main_cpu_ticks);
        CHECK(p.main_user_ticks == s.main_user_ticks);
        CHECK(p.exact_digest == s.exact_digest);
        CHECK(p.progress_digest == s.progress_digest);
        CHECK(p.chain_digest == s.chain_digest);
        CHECK(p.mpi_call == s.mpi_call);
        CHECK(p.error == s.error);
        CHECK(p.digest_only);
        if (s.sched_known) CHECK((p.main_run_ns == s.main_run_ns && p.main_wait_ns == s.main_wait_ns));
        // JSON to the microsecond, packed to its 20-us step up to 5 ms; unknown stays unknown.
        const double sent = samples_by_rank(samples, rank).stop_seconds;
        CHECK(s.stop_seconds == Approx(sent).margin(1e-6));
        if (sent == 0) CHECK(p.stop_seconds == 0);
        else if (sent < 5e-3) CHECK(p.stop_seconds == Approx(sent).margin(10e-6));
        else CHECK(p.stop_seconds == Approx(5.07e-3).margin(10e-6));
    }
    // Texts travel once each: "PMPI_Allreduce", "", the error.
    CHECK(packed["strings"].size() == 3);
    // Full samples never pack: their frames are JSON.
    nlohmann::json full{{"type", "samples"}};
    wire::put_samples(full, samples, true, true, false);
    CHECK(full.contains("samples"));
    CHECK(full["samples"][1].contains("frames"));
}

TEST_CASE("a packed reply is taken whole or not at all") {
    std::vector<std::pair<int, StackSample>> samples{{4, sample_in_allreduce()}, {5, sample_in_allreduce()}};
    nlohmann::json good{{"type", "samples"}};
    wire::put_samples(good, samples, false, true, false);
    std::string error;
    REQUIRE(wire::samples_from_json(good, {4, 5}, &error));
    CHECK_FALSE(wire::samples_from_json(good, {4}, &error));
    CHECK(error == "a sample of rank 5, which it was not asked for (an agent answers only for its own node's ranks)");
    auto broken = [&](const std::function<void(nlohmann::json&)>& change) {
        nlohmann::json j = good;
        change(j);
        return !wire::samples_from_json(j, {4, 5}, &error);
    };
    const std::string text = good["packed"];
    CHECK(broken([](nlohmann::json& j) { j["samples"] = nlohmann::json::array(); }));  // both forms
    CHECK(error == "bad samples reply (\"samples\" or \"packed\" expected, not both)");
    CHECK(broken([](nlohmann::json& j) { j["packed"] = 7; }));
    CHECK(broken([&](nlohmann::json& j) { j["packed"] = text.substr(0, text.size() - 4); }));  // a record cut short
    CHECK(error.rfind("bad packed samples (records of 80 bytes", 0) == 0);
    CHECK(broken([&](nlohmann::json& j) { j["packed"] = "!" + text.substr(1); }));             // not base64
    CHECK(broken([&](nlohmann::json& j) { j["packed"] = "=" + text.substr(1); }));             // padding first
    CHECK(broken([](nlohmann::json& j) { j.erase("strings"); }));
    CHECK(broken([](nlohmann::json& j) { j["strings"] = nlohmann::json::array(); }));          // an index beyond
    CHECK(error == "malformed sample");
    CHECK(broken([](nlohmann::json& j) { j["strings"][0] = 3; }));
    CHECK(broken([](nlohmann::json& j) { j["type"] = "ranks"; }));
    // Two records of one rank.
    nlohmann::json twice{{"type", "samples"}};
    wire::put_samples(twice, {{4, sample_in_allreduce()}, {4, sample_in_allreduce()}}, false, true, false);
    CHECK_FALSE(wire::samples_from_json(twice, {4, 5}, &error));
    CHECK(error == "two samples of rank 4 in one reply");
    // A status beyond the known ones, in the record itself.
    StackSample odd = sample_in_allreduce();
    odd.status = static_cast<SampleStatus>(9);
    nlohmann::json bad_status{{"type", "samples"}};
    wire::put_samples(bad_status, {{4, odd}}, false, true, false);
    CHECK_FALSE(wire::samples_from_json(bad_status, {4}, &error));
    CHECK(error == "malformed sample");
    // An empty reply (a link-only request's) is well formed.
    nlohmann::json empty{{"type", "samples"}};
    wire::put_samples(empty, {}, false, true, false);
    CHECK(wire::samples_from_json(empty, {}, &error)->empty());
    CHECK(wire::sample_packed(nlohmann::json{{"packed", true}}));
    CHECK_FALSE(wire::sample_packed(nlohmann::json{{"packed", "yes"}}));
    CHECK_FALSE(wire::sample_packed(nlohmann::json::object()));
}
