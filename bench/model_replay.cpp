// model_replay: feeds the S_out and S_move of logged samples (the supervisor's
// log_samples=yes / --verbose lines "sample N ... S_out=X ... S_move=Y ...")
// through fresh ParaStack models, as the watcher does, and prints the first
// sample at which either model would claim a hang (or that none would). For
// comparing decision rules on the same recorded jobs; it does not verify, so
// a claim here is a candidate, not a verdict.
//   model_replay [--alpha A] < job_N.log
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "model/parastack.h"

int main(int argc, char** argv) {
    jobsentry::ModelConfig config;
    if (argc == 3 && std::strcmp(argv[1], "--alpha") == 0) config.alpha = std::atof(argv[2]);
    else if (argc != 1) {
        std::cerr << "usage: model_replay [--alpha A] < supervisor.log\n";
        return 2;
    }
    jobsentry::ParaStackModel s_out_model(config), s_move_model(config);
    std::string line;
    int samples = 0;
    while (std::getline(std::cin, line)) {
        auto out = line.find(" S_out="), move = line.find(" S_move=");
        if (line.find("sample ") == std::string::npos || out == std::string::npos || move == std::string::npos)
            continue;
        ++samples;
        auto a = s_out_model.observe(std::atof(line.c_str() + out + 7));
        auto b = s_move_model.observe(std::atof(line.c_str() + move + 8));
        if (a.hang || b.hang) {
            std::cout << "claim at sample " << samples << " (" << (a.hang ? "S_out" : "S_move") << ")\n";
            return 0;
        }
    }
    std::cout << "no claim in " << samples << " samples\n";
    return 0;
}
