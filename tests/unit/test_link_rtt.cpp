// The slow verdict's link reading: which of the job's TCP connections count (model/link_rtt.h),
// and the socket diagnostics reader on a real connection (sampler/socket_diag.h).
#include "catch_compat.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hang/model/link_rtt.h"
#include "hang/sampler/socket_diag.h"

using namespace jobsentry;

namespace {

TcpConnection connection(uint64_t inode, const char* local, const char* remote, uint32_t srtt_us, uint64_t bytes) {
    TcpConnection c;
    c.inode = inode;
    c.local = local;
    c.remote = remote;
    c.srtt_us = srtt_us;
    c.bytes_acked = bytes;
    return c;
}

}  // namespace

TEST_CASE("a node's link reading is its fastest connection to another host that moved bytes") {
    const std::vector<TcpConnection> before{connection(1, "10.0.0.1", "10.0.0.2", 300000, 100),
                                            connection(2, "10.0.0.1", "10.0.0.3", 150, 100),
                                            connection(3, "10.0.0.1", "10.0.0.4", 90, 100)};
    std::vector<TcpConnection> now = before;
    now[0].bytes_acked = 500;  // to n2, slow, moved
    now[1].bytes_acked = 900;  // to n3, fast, moved
    // connection 3 (the fastest) moved nothing since: its round trip is an old one
    auto ms = node_link_ms(now, connection_bytes(before));
    REQUIRE(ms);
    CHECK(*ms == Approx(0.15));

    now[1].bytes_acked = 100;  // only the slow one moved: the node has no fast connection left
    CHECK(*node_link_ms(now, connection_bytes(before)) == Approx(300));
}

TEST_CASE("loopback, the node's own addresses, new and silent connections give no reading") {
    const std::vector<TcpConnection> before{connection(1, "127.0.0.1", "127.0.0.1", 20, 10),
                                            connection(2, "10.0.0.1", "10.0.0.1", 20, 10),
                                            connection(3, "::1", "::1", 20, 10),
                                            connection(4, "10.0.0.1", "10.0.0.2", 200, 10)};
    std::vector<TcpConnection> now = before;
    for (auto& c : now) c.bytes_acked += 1000;
    now[3] = before[3];  // the one to another host was silent
    now.push_back(connection(5, "10.0.0.1", "10.0.0.5", 50, 4000));  // new since: its handshake's round trip
    CHECK_FALSE(node_link_ms(now, connection_bytes(before)));
    CHECK_FALSE(node_link_ms({}, {}));
    now[3].bytes_received += 5000;  // it received, but what it sent got no new acknowledgement: an old round trip
    CHECK_FALSE(node_link_ms(now, connection_bytes(before)));
    now[3].bytes_acked += 100;
    CHECK(*node_link_ms(now, connection_bytes(before)) == Approx(0.2));
}

TEST_CASE("the socket diagnostics read this process's own TCP connection, its round trip and bytes") {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t length = sizeof address;
    REQUIRE(getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    REQUIRE(listen(listener, 1) == 0);
    const int client = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    const int server = accept(listener, nullptr, nullptr);
    REQUIRE(server >= 0);
    char buffer[4096] = {};
    for (int i = 0; i < 20; ++i) {  // a few exchanges: acknowledged bytes and measured round trips
        REQUIRE(write(client, buffer, sizeof buffer) == static_cast<ssize_t>(sizeof buffer));
        size_t got = 0;
        while (got < sizeof buffer) got += static_cast<size_t>(read(server, buffer, sizeof buffer - got));
        REQUIRE(write(server, buffer, 1) == 1);
        REQUIRE(read(client, buffer, 1) == 1);
    }
    const std::set<uint64_t> inodes = socket_inodes(getpid());
    CHECK(inodes.size() >= 3);  // the listener, the client and the server
    std::string error;
    auto connections = tcp_connections_of(inodes, &error);
    INFO(error);
    REQUIRE(connections);
    int ours = 0;
    for (const TcpConnection& c : *connections) {
        CHECK(c.local == "127.0.0.1");
        CHECK(c.remote == "127.0.0.1");
        CHECK(c.uid == getuid());
        CHECK(c.srtt_us > 0);
        ours += c.bytes_acked + c.bytes_received >= 20 * sizeof buffer;
    }
    CHECK(connections->size() == 2);  // the client's and the server's ends; the listener is not established
    CHECK(ours == 2);
    CHECK(tcp_connections_of({}, &error)->empty());
    close(server);
    close(client);
    close(listener);
}
