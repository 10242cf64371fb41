#include "base/text.h"

#include <cerrno>
#include <cstdio>
#include <cmath>
#include <cstdlib>

namespace jobsentry {

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (true) {
        size_t end = text.find(sep, pos);
        out.push_back(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return out;
}

bool parse_number(const std::string& text, double* out) {
    if (text.empty() || text.size() > 64) return false;
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(text.c_str(), &end);
    if (*end != '\0' || errno != 0 || !std::isfinite(v)) return false;
    *out = v;
    return true;
}

bool parse_int(const std::string& text, long lo, long hi, int* out) {
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return false;
    long v = std::strtol(text.c_str(), nullptr, 10);
    if (v < lo || v > hi) return false;
    *out = static_cast<int>(v);
    return true;
}

std::string format_number(double v) {
    // The shortest of 15 or 17 digits that reads back as v: 0.1, not 0.10000000000000001.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace jobsentry
