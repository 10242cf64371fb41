#include "hang/sampler/socket_diag.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace jobsentry {

namespace {

constexpr int kTcpEstablished = 1;  // TCP_ESTABLISHED of the kernel's tcp_states.h

std::optional<uint64_t> socket_inode(const char* link) {
    constexpr char kPrefix[] = "socket:[";
    if (std::strncmp(link, kPrefix, sizeof kPrefix - 1) != 0) return std::nullopt;
    char* end = nullptr;
    const unsigned long long inode = std::strtoull(link + sizeof kPrefix - 1, &end, 10);
    if (!end || *end != ']') return std::nullopt;
    return inode;
}

std::string address(int family, const __be32* words) {
    char text[INET6_ADDRSTRLEN] = "";
    inet_ntop(family, words, text, sizeof text);
    return text;
}

class Netlink {
public:
    Netlink() : fd_(socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG)) {}
    ~Netlink() {
        if (fd_ >= 0) close(fd_);
    }
    Netlink(const Netlink&) = delete;
    Netlink& operator=(const Netlink&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

// One dump of a family's established TCP sockets, appending those in `inodes` to *out.
bool dump(int nl, int family, const std::set<uint64_t>& inodes, std::vector<TcpConnection>* out, std::string* error) {
    struct {
        nlmsghdr header;
        inet_diag_req_v2 request;
    } message{};
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    message.request.sdiag_family = static_cast<__u8>(family);
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_states = 1u << kTcpEstablished;
    message.request.idiag_ext = 1u << (INET_DIAG_INFO - 1);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (sendto(nl, &message, sizeof message, 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) < 0) {
        *error = std::string("socket diagnostics request: ") + std::strerror(errno);
        return false;
    }
    alignas(nlmsghdr) char buffer[32768];
    size_t seen = 0;
    for (;;) {
        const ssize_t got = recv(nl, buffer, sizeof buffer, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) errno = ETIMEDOUT;  // SO_RCVTIMEO
            *error = std::string("socket diagnostics: ") + std::strerror(errno);
            return false;
        }
        if (got == 0) return true;
        int left = static_cast<int>(got);
        for (auto* h = reinterpret_cast<nlmsghdr*>(buffer); NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
            if (h->nlmsg_type == NLMSG_DONE) {  // its payload, when there, is the dump's own status
                int status = 0;
                if (h->nlmsg_len >= NLMSG_LENGTH(sizeof status)) std::memcpy(&status, NLMSG_DATA(h), sizeof status);
                if (status < 0) *error = std::string("socket diagnostics: ") + std::strerror(-status);
                return status >= 0;
            }
            if (h->nlmsg_type == NLMSG_ERROR) {
                int code = EPROTO;
                if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(nlmsgerr))) code = -static_cast<const nlmsgerr*>(NLMSG_DATA(h))->error;
                *error = std::string("socket diagnostics: ") + std::strerror(code);
                return false;
            }
            // NLM_F_DUMP_INTR (the socket table changed meanwhile) may leave sockets out, never wrong ones.
            if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY || h->nlmsg_len < NLMSG_LENGTH(sizeof(inet_diag_msg))) continue;
            const auto* diag = static_cast<const inet_diag_msg*>(NLMSG_DATA(h));
            if (++seen > kMaxConnections) continue;  // keep draining the dump, keep no more
            if (!inodes.count(diag->idiag_inode)) continue;
            TcpConnection c;
            c.inode = diag->idiag_inode;
            c.uid = diag->idiag_uid;
            c.local = address(family, diag->id.idiag_src);
            c.remote = address(family, diag->id.idiag_dst);
            int attributes = static_cast<int>(h->nlmsg_len - NLMSG_LENGTH(sizeof(inet_diag_msg)));
            for (auto* a = reinterpret_cast<rtattr*>(const_cast<inet_diag_msg*>(diag) + 1); RTA_OK(a, attributes);
                 a = RTA_NEXT(a, attributes)) {
                if (a->rta_type != INET_DIAG_INFO) continue;
                tcp_info info{};  // an older kernel sends fewer fields: the rest stay 0
                std::memcpy(&info, RTA_DATA(a), std::min(sizeof info, static_cast<size_t>(RTA_PAYLOAD(a))));
                c.srtt_us = info.tcpi_rtt;
                c.bytes_acked = info.tcpi_bytes_acked;
                c.bytes_received = info.tcpi_bytes_received;
            }
            out->push_back(std::move(c));
        }
    }
}

}  // namespace

std::set<uint64_t> socket_inodes(pid_t pid) {
    std::set<uint64_t> out;
    const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
    DIR* d = opendir(dir.c_str());
    if (!d) return out;
    size_t looked = 0;
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        if (++looked > kMaxFds) break;
        char link[64];
        const ssize_t n = readlinkat(dirfd(d), e->d_name, link, sizeof link - 1);
        if (n <= 0) continue;
        link[n] = '\0';
        if (auto inode = socket_inode(link)) out.insert(*inode);
    }
    closedir(d);
    return out;
}

std::optional<std::vector<TcpConnection>> tcp_connections_of(const std::set<uint64_t>& inodes, std::string* error) {
    std::vector<TcpConnection> out;
    if (inodes.empty()) return out;
    // A family the kernel refuses (no IPv6) leaves the other's connections: an error only when both
    // fail. One socket per dump: what a failed dump left unread never reaches the next.
    int failed = 0;
    for (int family : {AF_INET, AF_INET6}) {
        Netlink nl;
        std::string family_error;
        if (nl.fd() < 0) {
            family_error = std::string("socket diagnostics: ") + std::strerror(errno);
        } else {
            const timeval timeout{1, 0};  // never stall sampling on the kernel
            setsockopt(nl.fd(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
            if (dump(nl.fd(), family, inodes, &out, &family_error)) continue;
        }
        ++failed;
        *error = family_error;
    }
    if (failed == 2) return std::nullopt;
    error->clear();
    return out;
}

}  // namespace jobsentry
