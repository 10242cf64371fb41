#include "base/duration.h"

#include <cmath>

#include "base/text.h"

namespace jobsentry {

double parse_duration_seconds(const std::string& text) {
    struct Unit {
        const char* suffix;
        double seconds;
    };
    // "ms" before "s" and "m", or "400ms" would read as 400m + "s".
    for (Unit u : {Unit{"ms", 1e-3}, Unit{"s", 1}, Unit{"m", 60}, Unit{"h", 3600}, Unit{"d", 86400}}) {
        const std::string suffix = u.suffix;
        if (text.size() <= suffix.size() || text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        std::string number = text.substr(0, text.size() - suffix.size());
        if (number.find_first_not_of("0123456789.") != std::string::npos) return -1;
        double v = 0;
        if (!parse_number(number, &v) || v < 0) return -1;
        return v * u.seconds;
    }
    return -1;
}

long parse_duration_ms(const std::string& text) {
    double s = parse_duration_seconds(text);
    if (s < 0 || s * 1000 > 1e9) return -1;
    return std::lround(s * 1000);
}

std::string format_ms(int ms) { return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms"; }

}  // namespace jobsentry
