// Options of `jobsentry noise`: one table (name, default, help) drives the
// parser and --help. Parsing is pure (CPUs and output paths are checked
// against the machine in noise_command.cpp), so every rule is unit-tested.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/noise/probe.h"

namespace jobsentry {

struct NoiseOptions {
    std::string cpus = "all";
    std::string duration = "5s";
    long long threshold_ns = 0;  // 0: 9 x each PU's resolution
    long long max_detours = 1 << 18;
    std::string clock = "auto";
    std::string json;       // empty: no JSON file
    std::string trace_dir;  // empty: no traces
    bool predict = false;   // LogGOPS prediction for the noisiest PU's trace (tools/simulator/predict.h)
    std::string predict_procs = "1024,16384,1048576";
    std::vector<uint32_t> predict_scales;  // parsed from predict_procs
    std::vector<std::string> predict_goals;  // applications' GOAL schedules to predict as well
    std::string predict_params;              // LogGOPS parameters (jobsentry loggp's JSON); empty: Odin's
};

struct NoiseParse {
    NoiseOptions options;
    ProbeSettings settings;  // everything but the CPUs, which need the machine
    bool help = false;
    std::string error;  // non-empty: what was wrong and what is accepted
};

// args: everything after "noise".
NoiseParse parse_noise_options(const std::vector<std::string>& args);
std::string noise_help();

}  // namespace jobsentry
