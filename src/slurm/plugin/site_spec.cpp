#include "slurm/plugin/site_spec.h"

#include "base/duration.h"
#include "base/text.h"
#include "slurm/plugin/policy.h"

namespace jobsentry {

std::string accepted_values(const SiteKeySpec& spec) {
    switch (spec.type) {
        case SiteValue::on_off: return "on, off";
        case SiteValue::yes_no: return "yes, no";
        case SiteValue::path: return "an absolute path";
        case SiteValue::action: return "cancel, requeue, notify, report";
        case SiteValue::action_list: return "a comma-separated list of cancel, requeue, notify, report";
        case SiteValue::slow_action: return slow_action_names();
        case SiteValue::port_range: return "a port range FIRST-LAST within 1024-65535, e.g. 7100-7199";
        case SiteValue::number: return "numbers from " + format_number(spec.min_s) + " to " + format_number(spec.max_s);
        case SiteValue::count: return "whole numbers from " + format_number(spec.min_s) + " to " + format_number(spec.max_s);
        case SiteValue::duration:
            if (spec.min_s > 0)
                return "durations from " + format_ms(static_cast<int>(spec.min_s * 1000)) + " to " +
                       format_ms(static_cast<int>(spec.max_s * 1000)) + " with a unit, e.g. 2s";
            return "positive durations with a unit ms, s, m, h or d, e.g. 24h, 90s";
    }
    return "?";
}

}  // namespace jobsentry
