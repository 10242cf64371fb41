// Node health at job start: is this node's OS noise far above what the site
// knows as healthy? Pure: the probe's result against a baseline, no OS.
//
// The baseline is a `jobsentry noise --json` result of a node the site
// trusts (plugstack.conf `noise_baseline=PATH`); its level is the median of
// its PUs' noise overhead. A node is NOISY when its worst PU is at least
// `factor` times that level and also kMinNoisyPoints percentage points above
// it: a factor alone would name a node at 0.03 % against 0.01 %, a
// difference no job can feel. docs/noise.md, "Node health at job start".
#pragma once

#include <optional>
#include <string>

#include "tools/noise/probe_result.h"

namespace jobsentry {

inline constexpr double kMinNoisyPoints = 0.5;  // percentage points above the baseline, at least
inline constexpr size_t kMaxBaselineBytes = 1 << 20;

struct NoiseBaseline {
    double noise_percent = 0;  // median PU of the reference node
    int pus = 0;               // how many PUs it was measured on
    std::string cpu_model;     // its processor; "" in a baseline that does not say (accepted as before)
};

// Why a baseline cannot stand for this node, or "": it was measured on another processor
// ("measured on Intel Xeon Gold 6248, this node is AMD EPYC 7742"). Noise levels differ between
// processors and kernels' timer paths, so a factor against another machine's level means nothing.
std::string baseline_mismatch(const NoiseBaseline& baseline, const ProbeResult& node);

// Parses a `jobsentry noise --json` result. On failure returns nullopt and
// says what is wrong in *error (naming what is accepted).
std::optional<NoiseBaseline> parse_noise_baseline(const std::string& json_text, std::string* error);

struct NoiseHealth {
    bool measured = false;   // false: no PU of this node could be measured
    bool noisy = false;
    int worst_cpu = -1;
    double node_percent = 0;      // worst PU of this node
    double baseline_percent = 0;
    double factor = 0;            // node / baseline (0 when the baseline is 0 and the node too)
};

NoiseHealth judge_node_noise(const ProbeResult& node, const NoiseBaseline& baseline, double factor_limit);

// The clause's tail: "; NOISY 9.8x the site baseline 1.27%" or
// "; 1.1x the site baseline 1.27%".
std::string noise_health_text(const NoiseHealth& health);

}  // namespace jobsentry
