#include "tools/simulator/predict.h"

#include "tools/simulator/collectives.h"
#include "tools/simulator/engine.h"

namespace jobsentry::sim {

namespace {

// One schedule without and with the noise: makespans and their ratio.
nlohmann::json slowdown_row(Schedule&& s, const LogGOPS& p, const Noise& noise) {
    SimResult quiet = simulate(s, p);
    if (!quiet.error.empty()) return {{"procs", s.num_ranks}, {"error", quiet.error}};
    SimResult noisy = noise.active() ? simulate(s, p, noise) : quiet;
    return {{"procs", s.num_ranks},
            {"makespan_ns", noisy.makespan},
            {"noise_free_makespan_ns", quiet.makespan},
            {"slowdown", quiet.makespan ? static_cast<double>(noisy.makespan) / quiet.makespan : 1.0}};
}

}  // namespace

nlohmann::json predict_schedule_slowdown(Schedule schedule, const std::string& name, const NoiseTrace& trace,
                                         const PredictOptions& opt) {
    nlohmann::json row = slowdown_row(std::move(schedule), opt.params, Noise(trace, opt.seed, opt.cosched));
    row["application"] = name;
    return row;
}

nlohmann::json predict_noise_slowdown(const NoiseTrace& trace, const PredictOptions& opt) {
    const LogGOPS& p = opt.params;
    nlohmann::json out = {{"bytes", opt.bytes},
                          {"seed", opt.seed},
                          {"cosched", opt.cosched},
                          {"params", {{"L", p.L}, {"o", p.o}, {"g", p.g}, {"G", p.G}, {"O", p.O}, {"S", p.S}}},
                          {"predictions", nlohmann::json::array()}};
    Noise noise(trace, opt.seed, opt.cosched);
    for (const char* collective : {"dissemination", "allreduce-recdbl"}) {
        for (std::uint32_t procs : opt.scales) {
            nlohmann::json row = slowdown_row(make_collective(collective, procs, opt.bytes), p, noise);
            row["collective"] = collective;
            out["predictions"].push_back(row);
        }
    }
    return out;
}

}  // namespace jobsentry::sim
