#include "tools/checkpoint/advice.h"

#include <cmath>
#include <cstdio>

#include "tools/checkpoint/simulator.h"

namespace jobsentry::ckpt {
namespace {

constexpr long kSegments = 200000;  // samples of the dynamic rule's segment work
constexpr std::uint64_t kSeed = 1;  // fixed: the same input gives the same advice

std::string seconds(double s) {
    char buf[64];
    if (!std::isfinite(s)) return "unbounded";
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%.0fs (%.4gh)", s, s / 3600);
    else std::snprintf(buf, sizeof buf, "%.4gs", s);
    return buf;
}

std::string slowdown(double h) {
    if (!std::isfinite(h)) return "unbounded";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", h);
    return buf;
}

// JSON has no infinity: an unbounded slowdown is null.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

}  // namespace

Advice compute_advice(const AdviseOptions& o, const IterationDist* dist) {
    Advice a;
    a.node_mtbf_s = o.node_mtbf_s;
    a.nodes = o.nodes;
    a.job_mtbf_s = o.node_mtbf_s / o.nodes;
    a.platform = {failure_rate(o.node_mtbf_s, o.nodes), o.ckpt_cost_s, o.downtime_s,
                  o.recovery_s < 0 ? o.ckpt_cost_s : o.recovery_s};
    const Platform& p = a.platform;
    a.young_daly_period_s = young_daly_period(p);
    a.slowdown_period = periodic_slowdown(p, a.young_daly_period_s);
    if (checkpoint_exceeds_mtbf(p))
        a.warnings.push_back("the checkpoint cost " + seconds(p.C) + " exceeds the job's MTBF " + seconds(a.job_mtbf_s) +
                             " (per-node MTBF / nodes): most of the job's time will go to failures and"
                             " recovery whatever the period; the answers are the degenerate optimum (short"
                             " periods, down to a checkpoint after every iteration) and the expected slowdown"
                             " is large");
    if (dist) {
        a.have_iterations = true;
        a.dist = *dist;
        a.statics = static_choice(p, *dist);
        a.slowdown_static = static_slowdown(p, *dist, a.statics.k_static);
        a.slowdown_static_fo = static_slowdown(p, *dist, a.statics.k_fo);
        a.w_threshold_s = dynamic_threshold(p, *dist);
        a.w_first_order_s = a.young_daly_period_s;
        a.slowdown_dynamic = threshold_slowdown(p, *dist, a.w_threshold_s, kSegments, kSeed);
        a.slowdown_dynamic_fo = threshold_slowdown(p, *dist, a.w_first_order_s, kSegments, kSeed);
        if (!std::isfinite(dist->log_mgf(p.lambda)))
            a.warnings.push_back("E[e^{λX}] diverges for this iteration law at this failure rate: an iteration is"
                                 " unlikely to finish between failures");
    }
    return a;
}

std::string advice_text(const Advice& a) {
    const Platform& p = a.platform;
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "job MTBF %s (per-node %s / %g nodes), λ = %.4g/s; checkpoint %s, recovery %s, downtime %s\n",
                  seconds(a.job_mtbf_s).c_str(), seconds(a.node_mtbf_s).c_str(), a.nodes, p.lambda,
                  seconds(p.C).c_str(), seconds(p.R).c_str(), seconds(p.D).c_str());
    out += buf;
    if (a.have_iterations) {
        std::snprintf(buf, sizeof buf, "iterations: %s, mean %s, sd %s%s\n", to_string(a.dist.kind),
                      seconds(a.dist.mean()).c_str(), seconds(a.dist.sd()).c_str(),
                      a.dist.kind == DistKind::empirical
                          ? (" (" + std::to_string(a.dist.samples.size()) + " observed)").c_str()
                          : "");
        out += buf;
    }
    out += "\n  strategy                               choice                         expected slowdown\n";
    auto row = [&](const char* name, const std::string& choice, double h, const char* note) {
        std::snprintf(buf, sizeof buf, "  %-38s %-30s %s%s\n", name, choice.c_str(), slowdown(h).c_str(), note);
        out += buf;
    };
    row("Young/Daly period P_YD = sqrt(2C/λ)", seconds(a.young_daly_period_s), a.slowdown_period,
        "  (divisible work)");
    if (a.have_iterations) {
        std::snprintf(buf, sizeof buf, "k_static %ld (x_static %.4f)", a.statics.k_static, a.statics.x_static);
        row("static: every k iterations", buf, a.slowdown_static, "");
        std::snprintf(buf, sizeof buf, "k_FO %ld (P_YD/μ = %.4f)", a.statics.k_fo, a.statics.k_fo_real);
        row("static, first order (Young/Daly)", buf, a.slowdown_static_fo, "");
        row("dynamic: checkpoint once work >= W_th", "W_th " + seconds(a.w_threshold_s), a.slowdown_dynamic,
            "  (renewal estimate)");
        row("dynamic, first order W_FO = P_YD", "W_FO " + seconds(a.w_first_order_s), a.slowdown_dynamic_fo,
            "  (renewal estimate)");
    } else {
        out += "  (give --iter-mean/--iter-sd or --iter-file for k_static and W_th)\n";
    }
    return out;  // the warnings go to stderr
}

nlohmann::json advice_json(const Advice& a) {
    const Platform& p = a.platform;
    nlohmann::json j;
    j["lambda_per_s"] = p.lambda;
    j["job_mtbf_s"] = a.job_mtbf_s;
    j["node_mtbf_s"] = a.node_mtbf_s;
    j["nodes"] = static_cast<long>(a.nodes);
    j["ckpt_cost_s"] = p.C;
    j["recovery_s"] = p.R;
    j["downtime_s"] = p.D;
    j["young_daly_period_s"] = a.young_daly_period_s;
    j["slowdown_young_daly_period"] = number(a.slowdown_period);
    nlohmann::json none;  // null: no iteration law given
    j["iterations"] = a.have_iterations ? nlohmann::json{{"dist", to_string(a.dist.kind)},
                                                         {"mean_s", a.dist.mean()},
                                                         {"sd_s", a.dist.sd()}}
                                        : none;
    j["x_static"] = a.have_iterations ? nlohmann::json(a.statics.x_static) : none;
    j["k_static"] = a.have_iterations ? nlohmann::json(a.statics.k_static) : none;
    j["k_first_order"] = a.have_iterations ? nlohmann::json(a.statics.k_fo) : none;
    j["w_threshold_s"] = a.have_iterations ? nlohmann::json(a.w_threshold_s) : none;
    j["w_first_order_s"] = a.have_iterations ? nlohmann::json(a.w_first_order_s) : none;
    j["slowdown_static"] = a.have_iterations ? number(a.slowdown_static) : none;
    j["slowdown_static_first_order"] = a.have_iterations ? number(a.slowdown_static_fo) : none;
    j["slowdown_dynamic"] = a.have_iterations ? number(a.slowdown_dynamic) : none;
    j["slowdown_dynamic_first_order"] = a.have_iterations ? number(a.slowdown_dynamic_fo) : none;
    j["warnings"] = a.warnings;
    return j;
}

}  // namespace jobsentry::ckpt
