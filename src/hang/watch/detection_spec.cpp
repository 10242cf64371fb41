#include "hang/watch/detection_spec.h"

#include <cstdio>

#include "base/duration.h"

namespace jobsentry {
namespace {

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

bool in_range(const OptionSpec& o, double v) {
    const bool above = o.min_open ? v > o.min : v >= o.min;
    const bool below = o.max_open ? v < o.max : v <= o.max;
    return above && below;
}

std::string accepted_range(const OptionSpec& o, const std::string& name) {
    if (o.min_open || o.max_open)
        return number(o.min) + (o.min_open ? " < " : " <= ") + name + (o.max_open ? " < " : " <= ") + number(o.max);
    return (o.at_least[0] ? std::string(o.at_least) : number(o.min)) + ".." + number(o.max);
}

std::string format_value(const OptionSpec& o, double v, bool slurm_key) {
    if (o.type == OptionType::duration_ms && slurm_key) return format_ms(static_cast<int>(v));
    return number(v);
}

}  // namespace jobsentry
