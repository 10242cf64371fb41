// The platform of the Young/Daly tables in Du, Robert, Sun et al. (ICPP 2020),
// shared by the Young/Daly and checkpoint-simulator tests: n = 1000, μ_D = 50,
// C = R = 5, D = 1, λ = −ln(1−p_fail)/(μ_D+C).
#pragma once
#include "tools/checkpoint/young_daly.h"

inline jobsentry::ckpt::Platform paper_platform(double p_fail = 1e-2) {
  return {jobsentry::ckpt::failure_rate_from_pfail(p_fail, 55), 5, 1, 5};
}
