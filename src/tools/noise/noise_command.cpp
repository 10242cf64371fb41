#include "tools/noise/noise_command.h"

#include <iomanip>
#include <sstream>

#include "tools/simulator/goal_reader.h"
#include "tools/simulator/params_file.h"
#include "tools/simulator/predict.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "tools/noise/noise_options.h"
#include "tools/noise/noise_report.h"
#include "tools/noise/probe.h"
#include "base/command_line.h"

namespace jobsentry {

namespace {

// Output files are opened (created) before measuring, so an unwritable path
// is refused at once rather than after the run.
std::string open_output(const std::string& path, std::ofstream* out, const std::string& option) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return option + " " + path + ": is a directory";
    out->open(path, std::ios::out | std::ios::trunc);
    if (!*out) return option + " " + path + ": cannot be written (" + std::strerror(errno) + "); give a writable file";
    return {};
}

std::string make_trace_dir(const std::string& dir) {
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
        return "--trace-dir " + dir + ": cannot be created (" + std::strerror(errno) + "); give a writable directory";
    struct stat st;
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "--trace-dir " + dir + ": is not a directory";
    return {};
}

// The noisiest measured PU's trace through the LogGOPS simulator, in the
// probe's own trace format (the one `jobsentry simulate --noise-trace` reads).
// Applications' schedules (--predict-goal) are read now, one at a time, after the measurement.
nlohmann::json predict_for_noisiest(const ProbeResult& result, const NoiseOptions& o, const sim::LogGOPS& params) {
    const PuResult* worst = noisiest_pu(result);
    if (!worst) return {{"error", "no PU was measured"}};
    std::stringstream trace;
    write_noise_trace(trace, *worst);
    try {
        sim::PredictOptions options;
        options.scales = o.predict_scales;
        options.params = params;
        const sim::NoiseTrace noise = sim::read_noise_trace(trace, noise_trace_name(worst->cpu));
        nlohmann::json out = sim::predict_noise_slowdown(noise, options);
        out["cpu"] = worst->cpu;
        for (const std::string& goal : o.predict_goals) {
            try {
                out["predictions"].push_back(
                    sim::predict_schedule_slowdown(sim::read_goal_file(goal), goal, noise, options));
            } catch (const std::exception& e) {
                out["predictions"].push_back({{"application", goal}, {"error", e.what()}});
            }
        }
        return out;
    } catch (const std::exception& e) {
        return {{"cpu", worst->cpu}, {"error", e.what()}};
    }
}

std::string prediction_table(const nlohmann::json& p) {
    std::ostringstream out;
    if (p.contains("error")) return "prediction: " + p["error"].get<std::string>() + "\n";
    out << "predicted slowdown with the noise of PU " << p["cpu"] << " (LogGOPS, " << p["bytes"] << "-byte messages):\n";
    for (const auto& row : p["predictions"]) {
        const bool app = row.contains("application");
        out << "  " << std::left << std::setw(18) << row[app ? "application" : "collective"].get<std::string>()
            << std::right;
        if (row.contains("error")) {
            out << "  cannot be predicted: " << row["error"].get<std::string>() << '\n';
            continue;
        }
        out << std::setw(9) << row["procs"].get<uint64_t>() << " processes  x" << std::fixed << std::setprecision(4)
            << row["slowdown"].get<double>();
        if (app)
            out << "  (" << std::setprecision(3) << row["noise_free_makespan_ns"].get<double>() / 1e9 << " s -> "
                << row["makespan_ns"].get<double>() / 1e9 << " s)";
        out << '\n';
    }
    return out.str();
}

}  // namespace

int run_noise(const std::vector<std::string>& args) {
    NoiseParse parsed = parse_noise_options(args);
    if (auto status = answered(parsed.help, parsed.error, noise_help, "jobsentry noise")) return *status;
    auto refuse = [](const std::string& why) {
        std::cerr << "jobsentry noise: " << why << '\n';
        return 2;
    };
    const NoiseOptions& o = parsed.options;
    std::string error = check_noise_cpus(o.cpus, &parsed.settings.cpus);
    if (!error.empty()) return refuse(error);

    std::ofstream json;
    if (!o.json.empty() && !(error = open_output(o.json, &json, "--json")).empty()) return refuse(error);
    std::map<int, std::unique_ptr<std::ofstream>> traces;
    if (!o.trace_dir.empty()) {
        if (!(error = make_trace_dir(o.trace_dir)).empty()) return refuse(error);
        for (int cpu : parsed.settings.cpus) {
            auto& file = traces[cpu] = std::make_unique<std::ofstream>();
            error = open_output(o.trace_dir + "/" + noise_trace_name(cpu), file.get(), "--trace-dir");
            if (!error.empty()) return refuse(error);
        }
    }

    // The prediction's inputs are checked before measuring: a typo costs no measurement.
    sim::LogGOPS params;
    try {
        if (!o.predict_params.empty()) params = sim::read_params_file(o.predict_params, params);
    } catch (const std::exception& e) {
        return refuse(std::string("--predict-params: ") + e.what());
    }
    for (const std::string& goal : o.predict_goals)
        if (!std::ifstream(goal)) return refuse("--predict-goal " + goal + ": cannot be read (" + std::strerror(errno) + ")");

    ProbeResult result = run_noise_probe(parsed.settings);

    std::cout << noise_table(result);
    int status = 0;
    for (const PuResult& pu : result.pus) {
        if (!pu.error.empty()) status = 1;
        if (traces.count(pu.cpu)) write_noise_trace(*traces[pu.cpu], pu);
    }
    nlohmann::json report = noise_json(result);
    if (o.predict) {
        nlohmann::json predicted = predict_for_noisiest(result, o, params);
        std::cout << prediction_table(predicted);
        report["predicted_slowdown"] = predicted;
    }
    if (json.is_open()) json << report.dump(2) << '\n';
    auto written = [&](std::ofstream& f, const std::string& what) {
        f.close();
        if (!f) {
            std::cerr << "jobsentry noise: writing " << what << " failed\n";
            status = 1;
        }
    };
    if (json.is_open()) written(json, o.json);
    for (auto& [cpu, file] : traces) written(*file, o.trace_dir + "/" + noise_trace_name(cpu));
    return status;
}

}  // namespace jobsentry
