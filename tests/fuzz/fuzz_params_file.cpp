// The --params file of `jobsentry simulate` (simulator/params_file.h
// parse_params_json, as read_params_file calls it): anything malformed is a
// std::invalid_argument naming the file, which parse_simulate_options turns
// into an option error; what is accepted writes back and reads the same.
#include <stdexcept>

#include "fuzz_common.h"
#include "tools/simulator/params_file.h"

using namespace jobsentry::sim;

FUZZ_TEXT_TARGET(text) {
    LogGOPS p;
    try {
        p = parse_params_json(text, "fuzz.json", LogGOPS{});
    } catch (const std::invalid_argument&) {
        return;
    }
    const LogGOPS back = parse_params_json(params_json(p), "back.json", LogGOPS{});
    FUZZ_CHECK(back.L == p.L && back.o == p.o && back.g == p.g);
}
