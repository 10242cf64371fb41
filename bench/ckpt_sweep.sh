#!/usr/bin/env bash
# The slides' sweeps (Du et al., ICPP 2020, slides 25-27) with the failure
# simulator: p_fail from 1e-3 to 10^-0.1, the standard deviation σ, and the
# checkpoint/iteration ratio η; 10 000 runs of 1000 iterations per point,
# mean makespans normalised by the Young/Daly static one (k_FO); then the
# simulator's speed (one sweep point on one core).
#   bash bench/ckpt_sweep.sh [RUNS]
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SIM=$BUILD/bin/ckpt_sim
[ -x "$SIM" ] || { echo "build first: cmake --build build --target ckpt_sim" >&2; exit 1; }
RUNS=${1:-10000}
echo "## Varying p_fail (η = 0.1, C = R = 5, D = 1, $RUNS runs × 1000 iterations)"
taskset -c 0 "$SIM" --sweep pfail --runs "$RUNS"
echo
echo "## Varying σ (p_fail = 1e-2, η = 0.1)"
taskset -c 0 "$SIM" --sweep sigma --runs "$RUNS"
echo
echo "## Varying η = C/μ_D (Gamma(25, 0.5), p_fail = 1e-2, C = R = η·50)"
taskset -c 0 "$SIM" --sweep eta --runs "$RUNS"
echo
echo "## Simulator speed (one core; target: a sweep point of 10 000 runs × 1000 iterations under 1 s)"
taskset -c 0 "$SIM" --sweep speed --runs 10000
