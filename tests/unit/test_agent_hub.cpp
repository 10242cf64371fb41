// The leader's hub on real loopback sockets, without munge: what must hold
// before any credential is checked. A connection that stays silent never
// blocks the leader; garbage is refused at once; nodes whose agent never
// came are reported as unseen, so that no hang is confirmed without them.
#include "catch_compat.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>
#include <string>
#include <vector>

#include "hang/multinode/agent_hub.h"
#include "base/clock.h"

using namespace jobsentry;

namespace {

// A plain TCP client of 127.0.0.1:port; -1 on failure.
int connect_loopback(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    if (fd >= 0) close(fd);
    return -1;
}

constexpr PortRange kTestPorts{47100, 100};

}  // namespace

TEST_CASE("nodes whose agent never connected are unseen, and listed in the report") {
    AgentHub hub(7, 0, {"n2", "n3"});
    auto unseen = hub.unseen_nodes();
    REQUIRE(unseen.size() == 2);
    CHECK(unseen["n2"] == "node agent never connected on n2");
    CHECK(unseen["n3"] == "node agent never connected on n3");
    auto nodes = hub.nodes_json();
    REQUIRE(nodes.size() == 2);
    CHECK(nodes[0]["agent"] == "never connected");
    CHECK(hub.refresh_ranks().empty());
}

TEST_CASE("a connection that says nothing does not hold the leader up") {
    AgentHub hub(4242, 0, {"n2"});
    REQUIRE(hub.listen(kTestPorts).empty());
    std::vector<int> silent;
    for (int i = 0; i < 20; ++i) silent.push_back(connect_loopback(hub.port()));
    for (int fd : silent) REQUIRE(fd >= 0);
    const double t0 = monotonic_now();
    hub.accept_agents();
    hub.accept_agents();
    CHECK(monotonic_now() - t0 < 1.5);  // a blocking hello took 2 s per connection: 40 s here
    CHECK(hub.refused() == 0);          // not refused yet: their hello may still come
    CHECK(hub.unseen_nodes().size() == 1);
    for (int fd : silent) close(fd);
    for (int i = 0; i < 50 && hub.refused() < 20; ++i) {
        usleep(10000);
        hub.accept_agents();
    }
    CHECK(hub.refused() == 20);  // closed by the peer: dropped, not waited on
}

TEST_CASE("garbage or a hello that is not munge's is refused at once") {
    AgentHub hub(4242, 0, {"n2"});
    REQUIRE(hub.listen(kTestPorts).empty());
    int garbage = connect_loopback(hub.port());
    REQUIRE(garbage >= 0);
    const char bytes[] = "\xff\xff\xff\xffnot a message";  // a length beyond the bound
    REQUIRE(write(garbage, bytes, sizeof bytes - 1) > 0);
    int forged = connect_loopback(hub.port());
    REQUIRE(forged >= 0);
    const std::string hello = wire::encode({{"type", "hello"}, {"credential", "MUNGE:forged:"}});
    REQUIRE(write(forged, hello.data(), hello.size()) == static_cast<ssize_t>(hello.size()));
    usleep(50000);
    hub.accept_agents();
    CHECK(hub.refused() == 2);
    const auto events = hub.take_events();
    REQUIRE(events.size() == 2);
    for (const auto& e : events) CHECK(e.rfind("refused a node agent connection: ", 0) == 0);
    CHECK(hub.unseen_nodes().count("n2") == 1);
    close(garbage);
    close(forged);
}

TEST_CASE("before its hello, a peer cannot make the leader hold a long message") {
    AgentHub hub(4242, 0, {"n2"});
    REQUIRE(hub.listen(kTestPorts).empty());
    int big = connect_loopback(hub.port());
    REQUIRE(big >= 0);
    // A length within the bound of agents' messages (1 MiB), far beyond a hello's.
    const uint32_t n = wire::kMaxMessageBytes;
    const char header[4] = {char(n >> 24), char((n >> 16) & 0xff), char((n >> 8) & 0xff), char(n & 0xff)};
    REQUIRE(write(big, header, 4) == 4);
    usleep(50000);
    hub.accept_agents();
    CHECK(hub.refused() == 1);  // at once, not after 5 s of collecting a megabyte
    const auto events = hub.take_events();
    REQUIRE(events.size() == 1);
    CHECK(events[0].find("message of 1048576 bytes (at most 16384)") != std::string::npos);
    close(big);
}

TEST_CASE("nodes take turns at a link round's bounded requests") {
    const std::vector<std::string> nodes{"n1", "n2", "n3", "n4", "n5"};
    using V = std::vector<std::string>;
    CHECK(next_in_turn(nodes, "", 2) == V{"n1", "n2"});
    CHECK(next_in_turn(nodes, "n2", 2) == V{"n3", "n4"});
    CHECK(next_in_turn(nodes, "n4", 2) == V{"n5", "n1"});      // wraps around
    CHECK(next_in_turn(nodes, "n25", 2) == V{"n3", "n4"});     // the last one is no longer a candidate
    CHECK(next_in_turn(nodes, "n3", 9) == V{"n4", "n5", "n1", "n2", "n3"});  // each once at most
    CHECK(next_in_turn({}, "n3", 9).empty());
    // Every node is asked within ceil(5 / 2) rounds.
    std::set<std::string> asked;
    std::string last;
    for (int round = 0; round < 3; ++round)
        for (const auto& n : next_in_turn(nodes, last, 2)) {
            asked.insert(n);
            last = n;
        }
    CHECK(asked.size() == nodes.size());
}
