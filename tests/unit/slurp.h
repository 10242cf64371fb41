// A whole small file as a string, for the tests that check what was written.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
