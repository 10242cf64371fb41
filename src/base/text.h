// Small, strict text parsers shared by every option parser: KEY=VALUE lists
// split on a separator and numbers that must be the whole string. Pure.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

// "a,b,,c" -> {"a", "b", "", "c"}; "" -> {""}.
std::vector<std::string> split(const std::string& text, char sep);
// A finite decimal number that is the whole of TEXT (at most 64 characters).
bool parse_number(const std::string& text, double* out);
// Digits only, within lo..hi.
bool parse_int(const std::string& text, long lo, long hi, int* out);
// A number as users wrote it and read it back: shortest exact form (0.001, 2, 600000).
std::string format_number(double v);

}  // namespace jobsentry
