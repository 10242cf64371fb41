// Young/Daly arithmetic for iterative applications (Du, Marchal, Pallez,
// Robert, ICPP 2020; docs/checkpoint.md): the expected time of a segment, the
// static period k_static and the dynamic threshold W_th with their
// first-order forms. Pure functions, no I/O; every result is finite for
// λ > 0 and C, D, R ≥ 0, also when C exceeds the MTBF (then the answers
// degenerate to "checkpoint after every iteration").
#pragma once

#include "tools/checkpoint/iteration_dist.h"

namespace jobsentry::ckpt {

// Failure rate of a job on `nodes` nodes of per-node MTBF `node_mtbf_s`:
// μ = μ_ind / nodes, λ = 1/μ.
double failure_rate(double node_mtbf_s, double nodes);
// The rate at which a span of `seconds` fails with probability p_fail:
// λ = −ln(1 − p_fail) / seconds (the paper's experiments use seconds = μ_D + C).
double failure_rate_from_pfail(double p_fail, double seconds);

struct Platform {
    double lambda = 0;  // failure rate (1/s)
    double C = 0;       // checkpoint cost (s)
    double D = 0;       // downtime after a failure (s); failures do not strike during it
    double R = 0;       // recovery (restart from the checkpoint) cost (s)
};

// T_λ(W, C, D, R) = (1/λ + D) e^{λR} (e^{λ(W+C)} − 1): expected time to do W
// of work and checkpoint it, failures striking during work, checkpoint and
// recovery.
double segment_time(const Platform& p, double work);
// Young/Daly period √(2C/λ); also the first-order W_FO and k_FO·μ_D.
double young_daly_period(const Platform& p);
// Expected slowdown T_λ(P, C, D, R)/P of a divisible job checkpointed every P.
double periodic_slowdown(const Platform& p, double period);
// True when the checkpoint cost exceeds the MTBF (λC > 1): the answers are
// then degenerate and the caller should warn.
bool checkpoint_exceeds_mtbf(const Platform& p);

struct StaticChoice {
    double x_static = 0;  // (W₀(−e^{−λC−1}) + 1) / log E[e^{λX}]
    long k_static = 1;    // max(1,⌊x⌋) or ⌈x⌉, the smaller overhead C_ind(k)
    double k_fo_real = 0; // √(2C/λ) / μ_D
    long k_fo = 1;        // k_fo_real rounded to the nearest whole number, at least 1
};
StaticChoice static_choice(const Platform& p, const IterationDist& dist);
// C_ind(k) = (e^{λC} E[e^{λX}]^k − 1) / k, what k_static minimises.
double static_overhead(const Platform& p, const IterationDist& dist, long k);
// Expected slowdown of checkpointing every k iterations:
// T_λ over k iterations divided by k·μ_D (exact: E[e^{λW}] = E[e^{λX}]^k).
double static_slowdown(const Platform& p, const IterationDist& dist, long k);

// W_th = (1/λ) W₀(−λa e^{−λ(C+a)}) + a, a = E[X] / (E[e^{λX}] − 1): after an
// iteration, checkpoint when the work since the last checkpoint reaches W_th.
// 0 (checkpoint after every iteration) when E[e^{λX}] diverges.
double dynamic_threshold(const Platform& p, const IterationDist& dist);

}  // namespace jobsentry::ckpt
