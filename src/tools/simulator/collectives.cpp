#include "tools/simulator/collectives.h"

#include "tools/simulator/schedgen_patterns.h"

#include <stdexcept>

namespace jobsentry::sim {
namespace {

// Rank r's rounds of exchanges: in round k send to to(k) and receive from
// from(k) with tag k (the receive posted once the send has started, as after
// MPI_Isend; MPI_Irecv); round k+1 starts once round k's message has arrived.
// Returns the last receive (or `prev` when there are no rounds).
template <class To, class From>
std::uint32_t exchange_rounds(ScheduleBuilder& b, std::uint32_t r, std::uint32_t rounds, std::uint64_t bytes,
                              std::uint32_t prev, To to, From from) {
    for (std::uint32_t k = 0; k < rounds; ++k) {
        std::uint32_t send = b.send(r, to(k), bytes, static_cast<std::int32_t>(k));
        std::uint32_t recv = b.recv(r, static_cast<std::int32_t>(from(k)), bytes, static_cast<std::int32_t>(k));
        if (prev != kNoOp) b.after_end(send, prev);
        b.after_start(recv, send);
        prev = recv;
    }
    return prev;
}

// Binomial tree rooted at 0 (MPICH order): a rank receives from the rank that
// differs in its lowest set bit and sends to the largest subtree first.
Schedule binomial_bcast(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t r = 0; r < P; ++r) {
        std::uint32_t mask = 1;
        std::uint32_t prev = kNoOp;
        while (mask < P && !(r & mask)) mask <<= 1;
        if (r != 0) prev = b.recv(r, static_cast<std::int32_t>(r - mask), s, 0);
        bool first = true;
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (r + mask >= P) continue;
            std::uint32_t send = b.send(r, r + mask, s, 0);
            if (prev != kNoOp) first ? b.after_end(send, prev) : b.after_start(send, prev);
            prev = send;
            first = false;
        }
    }
    return b.finish();
}

// The binomial broadcast reversed: receive from every child (posted at once),
// then send to the parent.
Schedule binomial_reduce(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    std::vector<std::uint32_t> recvs;
    for (std::uint32_t r = 0; r < P; ++r) {
        recvs.clear();
        std::uint32_t mask = 1;
        for (; mask < P && !(r & mask); mask <<= 1)
            if (r + mask < P) recvs.push_back(b.recv(r, static_cast<std::int32_t>(r + mask), s, 0));
        if (r == 0) continue;
        std::uint32_t send = b.send(r, r - mask, s, 0);
        for (std::uint32_t rv : recvs) b.after_end(send, rv);
    }
    return b.finish();
}

// Round k: send to r + 2^k, receive from r - 2^k (tag k); a round starts when
// the previous round's message has been received.
Schedule dissemination(std::uint32_t P, std::uint64_t s) {
    std::uint32_t rounds = ceil_log2(P);
    ScheduleBuilder b(P, 2ull * P * rounds);
    for (std::uint32_t r = 0; r < P; ++r) {
        auto dist = [P](std::uint32_t k) { return static_cast<std::uint32_t>((std::uint64_t{1} << k) % P); };
        exchange_rounds(
            b, r, rounds, s, kNoOp, [&](std::uint32_t k) { return (r + dist(k)) % P; },
            [&](std::uint32_t k) { return (r + P - dist(k)) % P; });
    }
    return b.finish();
}

// Recursive doubling among the largest power of two p2 <= P; the first
// 2(P - p2) ranks pair up first (odd ones fold their data into the even ones)
// and get the result back at the end, as MPICH does.
Schedule allreduce_recdbl(std::uint32_t P, std::uint64_t s) {
    std::uint32_t p2 = 1;
    while (p2 * 2 <= P) p2 *= 2;
    std::uint32_t rem = P - p2;
    std::uint32_t rounds = ceil_log2(p2);
    ScheduleBuilder b(P, 2ull * P * (rounds + 1));
    auto rank_of = [rem](std::uint32_t v) { return v < rem ? 2 * v + 1 : v + rem; };
    for (std::uint32_t r = 0; r < P; ++r) {
        std::uint32_t prev = kNoOp;
        if (r < 2 * rem && r % 2 == 0) {  // folds into r + 1 and waits for the result
            std::uint32_t send = b.send(r, r + 1, s, 1000);
            std::uint32_t recv = b.recv(r, static_cast<std::int32_t>(r + 1), s, 1001);
            b.after_end(recv, send);
            continue;
        }
        if (r < 2 * rem) prev = b.recv(r, static_cast<std::int32_t>(r - 1), s, 1000);
        std::uint32_t v = r < 2 * rem ? r / 2 : r - rem;
        auto partner = [&](std::uint32_t k) { return rank_of(v ^ (1u << k)); };
        prev = exchange_rounds(b, r, rounds, s, prev, partner, partner);
        if (r < 2 * rem) b.after_end(b.send(r, r - 1, s, 1001), prev);
    }
    return b.finish();
}

// Ring: P-1 reduce-scatter steps then P-1 allgather steps, each moving a
// 1/P share (at least one byte) to the right neighbour.
Schedule allreduce_ring(std::uint32_t P, std::uint64_t s) {
    std::uint64_t chunk = (s + P - 1) / P;
    std::uint32_t steps = 2 * (P - 1);
    ScheduleBuilder b(P, 2ull * P * steps);
    for (std::uint32_t r = 0; r < P; ++r)
        exchange_rounds(
            b, r, steps, chunk, kNoOp, [&](std::uint32_t) { return (r + 1) % P; },
            [&](std::uint32_t) { return (r + P - 1) % P; });
    return b.finish();
}

// Root 0 sends to 1, 2, ..., P-1 in order (each send issued after the previous one started).
Schedule scatter_linear(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    std::uint32_t prev = kNoOp;
    for (std::uint32_t r = 1; r < P; ++r) {
        std::uint32_t send = b.send(0, r, s, 0);
        if (prev != kNoOp) b.after_start(send, prev);
        prev = send;
    }
    for (std::uint32_t r = 1; r < P; ++r) b.recv(r, 0, s, 0);
    return b.finish();
}

// Every rank sends to root 0, which has all receives posted at once.
Schedule gather_linear(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t r = 1; r < P; ++r) b.recv(0, static_cast<std::int32_t>(r), s, 0);
    for (std::uint32_t r = 1; r < P; ++r) b.send(r, 0, s, 0);
    return b.finish();
}

const CollectiveGenerator kGenerators[] = {
    {"binomial-bcast", binomial_bcast},     {"binomial-reduce", binomial_reduce}, {"dissemination", dissemination},
    {"allreduce-recdbl", allreduce_recdbl}, {"allreduce-ring", allreduce_ring},   {"scatter-linear", scatter_linear},
    {"gather-linear", gather_linear},
};

}  // namespace

const std::vector<std::string>& collective_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& g : kGenerators) v.push_back(g.name);
        for (const auto& g : schedgen_patterns()) v.push_back(g.name);
        return v;
    }();
    return names;
}

Schedule make_collective(const std::string& name, std::uint32_t procs, std::uint64_t bytes) {
    if (procs < 2) throw std::invalid_argument("--procs " + std::to_string(procs) + ": at least 2 processes");
    for (const auto& g : kGenerators)
        if (name == g.name) return g.make(procs, bytes);
    for (const auto& g : schedgen_patterns())
        if (name == g.name) return g.make(procs, bytes);
    std::string list;
    for (const auto& n : collective_names()) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown collective '" + name + "'; accepted: " + list);
}

}  // namespace jobsentry::sim
