#include "predict.h"

#include "collectives.h"
#include "engine.h"

namespace jobsentry::sim {

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
            Schedule s = make_collective(collective, procs, opt.bytes);
            SimResult quiet = simulate(s, p);
            SimResult noisy = noise.active() ? simulate(s, p, noise) : quiet;
            out["predictions"].push_back(
                {{"collective", collective},
                 {"procs", procs},
                 {"makespan_ns", noisy.makespan},
                 {"noise_free_makespan_ns", quiet.makespan},
                 {"slowdown", quiet.makespan ? static_cast<double>(noisy.makespan) / quiet.makespan : 1.0}});
        }
    }
    return out;
}

}  // namespace jobsentry::sim
