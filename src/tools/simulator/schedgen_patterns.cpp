#include "tools/simulator/schedgen_patterns.h"

namespace jobsentry::sim {
namespace {

std::int32_t from(std::uint32_t rank) { return static_cast<std::int32_t>(rank); }

// Round r: a rank v < 2^r sends to v + 2^r; a rank 2^r <= v < 2^(r+1)
// receives from v - 2^r. Every send after the receive requires it (written
// again in every later round, as schedgen does).
Schedule binomial_tree_bcast(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t v = 0; v < P; ++v) {
        std::uint32_t send = kNoOp, recv = kNoOp;
        for (std::uint32_t r = 0, bit = 1; r < ceil_log2(P); ++r, bit <<= 1) {
            if (v < bit && std::uint64_t{v} + bit < P) send = b.send(v, v + bit, s, 0);
            if (send != kNoOp && recv != kNoOp) b.after_end(send, recv);
            if (v >= bit && v < 2ull * bit) recv = b.recv(v, from(v - bit), s, 0);
        }
    }
    return b.finish();
}

// The mirror image: v receives from v + 2^r in the rounds after its own send
// round and its send (to v minus its highest bit) requires each receive.
Schedule binomial_tree_reduce(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t v = 0; v < P; ++v) {
        std::uint32_t send = kNoOp, recv = kNoOp;
        for (std::uint32_t r = 0, bit = 1; r < ceil_log2(P); ++r, bit <<= 1) {
            if (v < bit && std::uint64_t{v} + bit < P) recv = b.recv(v, from(v + bit), s, 0);
            if (send != kNoOp && recv != kNoOp) b.after_end(send, recv);
            if (v >= bit && v < 2ull * bit) send = b.send(v, v - bit, s, 0);
        }
    }
    return b.finish();
}

// Rank v receives from (v-1)/2 and then sends to 2v+1 and 2v+2 (the
// breadth-first numbering of schedgen's queue); both sends require the receive.
Schedule binary_tree_bcast(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t v = 0; v < P; ++v) {
        std::uint32_t recv = v > 0 ? b.recv(v, from((v - 1) / 2), s, 0) : kNoOp;
        for (std::uint64_t child = 2ull * v + 1; child <= 2ull * v + 2 && child < P; ++child) {
            std::uint32_t send = b.send(v, static_cast<std::uint32_t>(child), s, 0);
            if (recv != kNoOp) b.after_end(send, recv);
        }
    }
    return b.finish();
}

// Round k: send to v + 2^k, which requires the previous round's receive; the
// receives (from v - 2^k) depend on nothing, all posted at the start.
Schedule schedgen_dissemination(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P * ceil_log2(P));
    for (std::uint32_t v = 0; v < P; ++v) {
        std::uint32_t recv = kNoOp;
        for (std::uint64_t dist = 1; dist < P; dist <<= 1) {
            std::uint32_t send = b.send(v, static_cast<std::uint32_t>((v + dist) % P), s, 0);
            if (recv != kNoOp) b.after_end(send, recv);
            recv = b.recv(v, from(static_cast<std::uint32_t>((v + P - dist) % P)), s, 0);
        }
    }
    return b.finish();
}

// Rank 0: a `calc 0` that requires a 1-byte receive from every rank, and a
// 1-byte send to every rank that requires the calc; the others send, then receive.
Schedule linbarrier(std::uint32_t P, std::uint64_t) {
    ScheduleBuilder b(P, 4ull * P);
    std::uint32_t dummy = b.calc(0, 0);
    for (std::uint32_t i = 1; i < P; ++i) {
        std::uint32_t recv = b.recv(0, from(i), 1, 0);
        std::uint32_t send = b.send(0, i, 1, 0);
        b.after_end(dummy, recv);
        b.after_end(send, dummy);
    }
    for (std::uint32_t v = 1; v < P; ++v) {
        b.send(v, 0, 1, 0);
        b.recv(v, 0, 1, 0);
    }
    return b.finish();
}

// Root 0 receives from 1..P-1, posted at the start; the others send.
Schedule gather(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t i = 1; i < P; ++i) b.recv(0, from(i), s, 0);
    for (std::uint32_t v = 1; v < P; ++v) b.send(v, 0, s, 0);
    return b.finish();
}

// Root 0 sends to 1..P-1, all free at the start; the others receive.
Schedule scatter(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P);
    for (std::uint32_t i = 1; i < P; ++i) b.send(0, i, s, 0);
    for (std::uint32_t v = 1; v < P; ++v) b.recv(v, 0, s, 0);
    return b.finish();
}

// Step k = 1..P-1: send to v + k, receive from v - k; no dependencies.
Schedule linear_alltoall(std::uint32_t P, std::uint64_t s) {
    ScheduleBuilder b(P, 2ull * P * (P - 1));
    for (std::uint32_t v = 0; v < P; ++v) {
        for (std::uint32_t k = 1; k < P; ++k) {
            b.send(v, (v + k) % P, s, 0);
            b.recv(v, from((v + P - k) % P), s, 0);
        }
    }
    return b.finish();
}

}  // namespace

const std::vector<CollectiveGenerator>& schedgen_patterns() {
    static const std::vector<CollectiveGenerator> patterns = {
        {"schedgen:binomialtreebcast", binomial_tree_bcast}, {"schedgen:binomialtreereduce", binomial_tree_reduce},
        {"schedgen:binarytreebcast", binary_tree_bcast},     {"schedgen:dissemination", schedgen_dissemination},
        {"schedgen:linbarrier", linbarrier},                 {"schedgen:gather", gather},
        {"schedgen:scatter", scatter},                       {"schedgen:linear_alltoall", linear_alltoall},
    };
    return patterns;
}

}  // namespace jobsentry::sim
