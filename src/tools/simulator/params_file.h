// LogGOPS parameters as a small JSON file, {"L":..,"o":..,"g":..,"G":..,"O":..,
// "S":..}, times in ns (G and O in ns per byte): what `jobsentry loggp` writes
// and `jobsentry simulate --params FILE` reads. Pure but for the file I/O.
#pragma once

#include <string>

#include "tools/simulator/params.h"

namespace jobsentry::sim {

// The parameters of `text` over `base`: every key given replaces base's value,
// missing keys keep it. Throws std::invalid_argument naming `file`, the key and
// what is accepted (keys L, o, g, G, O, S; numbers 0..1e15; S a whole number).
LogGOPS parse_params_json(const std::string& text, const std::string& file, const LogGOPS& base);
LogGOPS read_params_file(const std::string& path, const LogGOPS& base);

// The JSON text of p's L, o, g, G, O (what `jobsentry loggp` measures; a reader
// keeps its own S).
std::string params_json(const LogGOPS& p);

}  // namespace jobsentry::sim
