#include "hang/multinode/connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "base/clock.h"

namespace jobsentry {
namespace {

int ms_until(double deadline) {
    const double left = deadline - monotonic_now();
    return left <= 0 ? 0 : static_cast<int>(std::ceil(left * 1000));
}

// Waits for events on fd until the deadline; false on timeout or error.
bool wait_fd(int fd, short events, double deadline) {
    for (;;) {
        pollfd p{fd, events, 0};
        int n = poll(&p, 1, ms_until(deadline));
        if (n > 0) return true;
        if (n == 0) return false;
        if (errno != EINTR) return false;
    }
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

Connection& Connection::operator=(Connection&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = other.fd_;
        reader_ = std::move(other.reader_);
        send_limit_ = other.send_limit_;
        sent_ = other.sent_;
        received_ = other.received_;
        other.fd_ = -1;
    }
    return *this;
}

void Connection::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

std::string Connection::send(const nlohmann::json& message, double deadline) {
    if (fd_ < 0) return "not connected";
    const std::string bytes = wire::encode(message, send_limit_);
    if (bytes.empty()) return "message too long";
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            done += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            if (!wait_fd(fd_, POLLOUT, deadline)) return "timed out sending";
            continue;
        }
        return std::string("send: ") + std::strerror(errno);
    }
    sent_ += bytes.size();
    return {};
}

std::optional<nlohmann::json> Connection::receive(double deadline, std::string* error) {
    if (fd_ < 0) {
        *error = "not connected";
        return std::nullopt;
    }
    for (;;) {
        if (auto message = reader_.next(error)) return message;
        if (!error->empty()) return std::nullopt;
        char buf[65536];
        ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
        if (n > 0) {
            received_ += static_cast<uint64_t>(n);
            reader_.append(buf, static_cast<size_t>(n));
            continue;
        }
        if (n == 0) {
            *error = "closed by the peer";
            return std::nullopt;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            if (!wait_fd(fd_, POLLIN, deadline)) {
                *error = "timed out";
                return std::nullopt;
            }
            continue;
        }
        *error = std::string("recv: ") + std::strerror(errno);
        return std::nullopt;
    }
}

std::optional<Connection> connect_to(const std::string& address, int port, double deadline, std::string* error) {
    addrinfo hints{};
    hints.ai_flags = AI_NUMERICSERV;  // NodeAddr may be a name
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (int rc = getaddrinfo(address.c_str(), service.c_str(), &hints, &found); rc != 0) {
        *error = "address " + address + ": " + gai_strerror(rc);
        return std::nullopt;
    }
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        *error = std::string("socket: ") + std::strerror(errno);
        freeaddrinfo(found);
        return std::nullopt;
    }
    int rc = ::connect(fd, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    if (rc != 0 && errno == EINPROGRESS) {
        int so_error = ETIMEDOUT;
        if (wait_fd(fd, POLLOUT, deadline)) {
            socklen_t len = sizeof so_error;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
        }
        rc = so_error == 0 ? 0 : -1;
        errno = so_error;
    }
    if (rc != 0) {
        *error = "connect to " + address + ":" + service + ": " + std::strerror(errno);
        ::close(fd);
        return std::nullopt;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return Connection(fd);
}

int listen_on(int port, std::string* error) {
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool v6 = fd >= 0;
    if (!v6) fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = std::string("socket: ") + std::strerror(errno);
        return -1;
    }
    int one = 1, zero = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int rc;
    if (v6) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);  // IPv4 peers too
        sockaddr_in6 a{};
        a.sin6_family = AF_INET6;
        a.sin6_addr = in6addr_any;
        a.sin6_port = htons(static_cast<uint16_t>(port));
        rc = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    } else {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        a.sin_port = htons(static_cast<uint16_t>(port));
        rc = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    if (rc != 0 || listen(fd, 64) != 0) {
        *error = "port " + std::to_string(port) + ": " + std::strerror(errno);
        ::close(fd);
        return -1;
    }
    set_nonblocking(fd);
    return fd;
}

}  // namespace jobsentry
