// Options of `jobsentry loggp` (pure parsing; every error names the option
// and what it accepts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jobsentry::loggp {

struct LoggpOptions {
    std::vector<std::uint64_t> bytes{1, 64, 1024, 4096, 16384, 65536};
    int reps = 100;
    int burst = 16;
    std::string out = "loggp.json";
    std::string mpirun = "mpirun -np 2";  // words, split on blanks
    std::string probe;                    // empty: next to jobsentry
    bool help = false;
    std::string error;
};

LoggpOptions parse_loggp_options(const std::vector<std::string>& args);
// "1,64,1024": sorted, without repeats; error non-empty when unparsable.
std::vector<std::uint64_t> parse_bytes_list(const std::string& text, std::string& error);
std::string loggp_help();

}  // namespace jobsentry::loggp
