#include "hang/watch/detection_spec.h"

#include "base/duration.h"
#include "base/text.h"

namespace jobsentry {

bool has_range(const OptionSpec& o) { return o.type != OptionType::flag && o.max > o.min; }

bool in_range(const OptionSpec& o, double v) {
    if (!has_range(o)) return true;
    const bool above = o.min_open ? v > o.min : v >= o.min;
    const bool below = o.max_open ? v < o.max : v <= o.max;
    return above && below;
}

std::string accepted_range(const OptionSpec& o, const std::string& name) {
    if (o.min_open || o.max_open)
        return format_number(o.min) + (o.min_open ? " < " : " <= ") + name + (o.max_open ? " < " : " <= ") +
               format_number(o.max);
    return (o.at_least[0] ? std::string(o.at_least) : format_number(o.min)) + ".." + format_number(o.max);
}

std::string format_value(const OptionSpec& o, double v, bool slurm_key) {
    if (o.type == OptionType::duration_ms && slurm_key) return format_ms(static_cast<int>(v));
    return format_number(v);
}

}  // namespace jobsentry
