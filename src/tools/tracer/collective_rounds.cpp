// See collective_rounds.h.
#include "tools/tracer/collective_rounds.h"

namespace jobtrace {

namespace {

// Binomial tree rooted at position 0 in relative positions v: v's parent is v
// without its lowest set bit, its children v + 2^k for 2^k below that bit.
void binomial_bcast(std::vector<Round>& out, std::uint32_t p, std::uint32_t v, std::uint32_t root,
                    std::uint64_t bytes) {
    auto abs = [&](std::uint32_t rel) { return (rel + root) % p; };
    std::uint32_t mask = 1;
    while (mask < p && !(v & mask)) mask <<= 1;
    if (v != 0) out.push_back({Message{false, abs(v - mask), bytes}});
    Round sends;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < p) sends.push_back({true, abs(v + mask), bytes});
    if (!sends.empty()) out.push_back(sends);
}

void binomial_reduce(std::vector<Round>& out, std::uint32_t p, std::uint32_t v, std::uint32_t root,
                     std::uint64_t bytes) {
    auto abs = [&](std::uint32_t rel) { return (rel + root) % p; };
    Round receives;
    std::uint32_t mask = 1;
    for (; mask < p && !(v & mask); mask <<= 1)
        if (v + mask < p) receives.push_back({false, abs(v + mask), bytes});
    if (!receives.empty()) out.push_back(receives);
    if (v != 0) out.push_back({Message{true, abs(v - mask), bytes}});
}

// Recursive doubling over p; with p not a power of two the first 2r ranks fold in pairs first.
// halving (Rabenseifner): the exchanges are a reduce-scatter by recursive halving (bytes/2,
// bytes/4, ... bytes/pof2), then an allgather by recursive doubling (the same sizes backwards).
void recursive_doubling(std::vector<Round>& out, std::uint32_t p, std::uint32_t me, std::uint64_t bytes,
                        bool halving = false) {
    std::uint32_t pof2 = 1;
    while (pof2 * 2 <= p) pof2 *= 2;
    const std::uint32_t rem = p - pof2;
    if (me < 2 * rem && me % 2 == 0) {  // hands its data to me + 1 and gets the result back
        out.push_back({{true, me + 1, bytes}});
        out.push_back({{false, me + 1, bytes}});
        return;
    }
    if (me < 2 * rem) out.push_back({{false, me - 1, bytes}});
    const std::uint32_t v = me < 2 * rem ? me / 2 : me - rem;  // position among the pof2
    auto real = [&](std::uint32_t u) { return u < rem ? 2 * u + 1 : u + rem; };
    struct Step {
        std::uint32_t mask;
        std::uint64_t bytes;
    };
    std::vector<Step> steps;
    std::uint64_t chunk = bytes;
    for (std::uint32_t mask = 1; mask < pof2; mask <<= 1) {
        if (halving) chunk = chunk > 1 ? chunk / 2 : 1;
        steps.push_back({mask, chunk});
    }
    for (std::size_t i = steps.size(); halving && i-- > 0;) {
        const Step back = steps[i];
        steps.push_back(back);
    }
    for (const Step& s : steps) out.push_back({{true, real(v ^ s.mask), s.bytes}, {false, real(v ^ s.mask), s.bytes}});
    if (me < 2 * rem) out.push_back({{true, me - 1, bytes}});
}

// Linear gather (the root receives from each member) or scatter (root_sends: it sends to each).
void linear(std::vector<Round>& out, std::uint32_t p, std::uint32_t me, std::uint32_t root, std::uint64_t bytes,
            bool root_sends) {
    Round round;
    if (me != root) round.push_back({!root_sends, root, bytes});
    for (std::uint32_t i = 0; i < p && me == root; ++i)
        if (i != root) round.push_back({root_sends, i, bytes});
    out.push_back(round);
}

}  // namespace

bool is_collective(Kind kind) { return kind >= Kind::barrier && kind <= Kind::alltoall; }

const char* kind_name(Kind kind) {
    static const char* const names[] = {"?", "send", "recv", "isend", "irecv", "complete", "sendrecv(send)",
                                        "sendrecv(recv)", "barrier", "bcast", "reduce", "allreduce", "gather",
                                        "scatter", "allgather", "alltoall", "comm", "end"};
    auto i = static_cast<std::size_t>(kind);
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

std::vector<Round> collective_rounds(Kind kind, std::uint32_t p, std::uint32_t me, std::uint32_t root,
                                     std::uint64_t bytes, Allreduce allreduce) {
    std::vector<Round> out;
    if (p < 2 || me >= p) return out;
    root %= p;
    const std::uint32_t v = (me + p - root) % p;
    switch (kind) {
    case Kind::barrier:
        for (std::uint32_t d = 1; d < p; d <<= 1) out.push_back({{true, (me + d) % p, 1}, {false, (me + p - d) % p, 1}});
        break;
    case Kind::bcast: binomial_bcast(out, p, v, root, bytes); break;
    case Kind::reduce: binomial_reduce(out, p, v, root, bytes); break;
    case Kind::allreduce:
        if (allreduce == Allreduce::by_size)
            allreduce = bytes <= kShortAllreduce ? Allreduce::recursive_doubling : Allreduce::rabenseifner;
        if (allreduce != Allreduce::reduce_bcast) {
            recursive_doubling(out, p, me, bytes, allreduce == Allreduce::rabenseifner);
            break;
        }
        binomial_reduce(out, p, me, 0, bytes);
        binomial_bcast(out, p, me, 0, bytes);
        break;
    case Kind::gather: linear(out, p, me, root, bytes, false); break;
    case Kind::scatter: linear(out, p, me, root, bytes, true); break;
    case Kind::allgather:
        for (std::uint32_t s = 1; s < p; ++s) out.push_back({{true, (me + 1) % p, bytes}, {false, (me + p - 1) % p, bytes}});
        break;
    case Kind::alltoall:
        for (std::uint32_t s = 1; s < p; ++s) out.push_back({{true, (me + s) % p, bytes}, {false, (me + p - s) % p, bytes}});
        break;
    default: break;
    }
    return out;
}

}  // namespace jobtrace
