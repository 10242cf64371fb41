// The answer of `jobsentry ckpt advise`: the Young/Daly period, the static
// and dynamic choices with their expected slowdowns, and warnings; as text
// and as JSON. Pure.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/checkpoint/advise_options.h"
#include "tools/checkpoint/young_daly.h"

namespace jobsentry::ckpt {

struct Advice {
    Platform platform;
    double node_mtbf_s = 0, nodes = 1, job_mtbf_s = 0;
    double young_daly_period_s = 0, slowdown_period = 0;
    bool have_iterations = false;
    IterationDist dist;
    StaticChoice statics;
    double slowdown_static = 0, slowdown_static_fo = 0;
    double w_threshold_s = 0, w_first_order_s = 0;
    double slowdown_dynamic = 0, slowdown_dynamic_fo = 0;  // estimated by sampling segments
    std::vector<std::string> warnings;
};

// `dist` is the iteration law (nullptr when none was given).
Advice compute_advice(const AdviseOptions& o, const IterationDist* dist);
std::string advice_text(const Advice& a);
nlohmann::json advice_json(const Advice& a);

}  // namespace jobsentry::ckpt
