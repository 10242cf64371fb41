// One TCP connection between a node agent and its leader, carrying wire.h
// messages. Every call has a deadline (CLOCK_MONOTONIC seconds): a peer that
// stops answering costs at most that long, and a peer that sends too much
// or garbage is an error, never a wait.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hang/multinode/wire.h"

namespace jobsentry {

class Connection {
public:
    Connection() = default;
    explicit Connection(int fd) : fd_(fd) {}
    ~Connection() { close(); }
    Connection(Connection&& other) noexcept
        : fd_(other.fd_), reader_(std::move(other.reader_)), send_limit_(other.send_limit_), sent_(other.sent_),
          received_(other.received_) {
        other.fd_ = -1;
    }
    Connection& operator=(Connection&& other) noexcept;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    bool is_open() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    void close();

    // "" when the whole message was written before the deadline.
    std::string send(const nlohmann::json& message, double deadline);
    // The next message; nullopt with *error ("timed out", "closed by the peer", ...).
    std::optional<nlohmann::json> receive(double deadline, std::string* error);
    // Longer messages from the peer are an error (wire::Reader::limit), and longer ones of ours are not
    // sent: a relay's connections carry its subtree's messages (wire::max_message_bytes_for).
    void limit_messages(uint32_t max_bytes) {
        reader_.limit(max_bytes);
        send_limit_ = std::max(max_bytes, wire::kMaxMessageBytes);
    }
    // Bytes moved so far (the bench's network figure).
    uint64_t bytes_sent() const { return sent_; }
    uint64_t bytes_received() const { return received_; }

private:
    int fd_ = -1;
    wire::Reader reader_;
    uint32_t send_limit_ = wire::kMaxMessageBytes;
    uint64_t sent_ = 0;
    uint64_t received_ = 0;
};

// A connection to address:port (a name or an IPv4/IPv6 address), or nullopt with *error.
std::optional<Connection> connect_to(const std::string& address, int port, double deadline, std::string* error);

// A non-blocking listening socket on every address at port, or -1 with *error.
int listen_on(int port, std::string* error);

}  // namespace jobsentry
