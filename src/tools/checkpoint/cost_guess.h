// The checkpoint cost C assumed until one is measured or configured: the
// library's advisor, the supervisor's checkpoint signal and the plugin's
// --checkpoint all start from it.
#pragma once

namespace jobsentry::ckpt {
inline constexpr double kCheckpointCostGuessS = 60;
}  // namespace jobsentry::ckpt
