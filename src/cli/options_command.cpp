#include "cli/options_command.h"

#include <iostream>

#include "base/duration.h"
#include "hang/watch/detection_spec.h"
#include "slurm/plugin/site_spec.h"

namespace jobsentry {
namespace {

// Markdown table cells may not hold a bare "|".
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

// How a value is named in plugstack.conf and --hang-detect, where durations carry a unit.
std::string slurm_meta(const OptionSpec& o) {
    return o.type == OptionType::duration_ms ? "DURATION" : o.type == OptionType::real ? "P" : o.meta;
}

// `jobsentry watch` and `jobsentry supervise`: flag, default, what it does and accepts.
std::string watch_table() {
    std::string out = "| option | default | meaning |\n|---|---|---|\n";
    for (int id = 0; id < kDetectionOptionCount; ++id) {
        const OptionSpec& o = kDetectionOptions[id];
        const std::string flag = std::string("`--") + o.cli + (o.type == OptionType::flag ? "`" : std::string(" ") + o.meta + "`");
        const std::string def = o.type == OptionType::flag ? "off" : format_value(o, o.default_value);
        std::string meaning = o.help;
        if (has_range(o)) meaning += " (" + accepted_range(o, o.cli) + ")";
        out += "| " + flag + " | " + def + " | " + cell(meaning) + " |\n";
    }
    return out;
}

// plugstack.conf: the site's switches, the defaults of the users' keys, the
// site's limits, then its paths, ports, noise probe and checkpoint keys.
std::string plugstack_table() {
    std::string out = "| plugstack.conf argument | default | meaning |\n|---|---|---|\n";
    auto row = [&](const OptionSpec& o, const std::string& meaning) {
        out += "| `" + std::string(o.site_key) + "=" + slurm_meta(o) + "` | `" + format_value(o, o.default_value, true) + "` | " +
               cell(meaning) + " |\n";
    };
    auto site_row = [&](const SiteKeySpec& k) {
        // Help texts are written as markdown already (`on`, links): only the meta needs escaping ("on\\|off").
        out += "| `" + std::string(k.key) + "=" + k.meta + "` | " + k.default_text + " | " + k.help + " |\n";
    };
    site_row(kSiteKeys[kDefaultOn]);
    site_row(kSiteKeys[kAllowOptout]);
    auto accepted = [](const OptionSpec& o) {
        return o.type == OptionType::duration_ms ? format_ms(static_cast<int>(o.min)) + " to " + format_ms(static_cast<int>(o.max))
                                                 : accepted_range(o, o.site_key);
    };
    for (const OptionSpec& o : kDetectionOptions)
        if (o.site_key[0] && o.user_key[0]) row(o, std::string("the default of --hang-detect's ") + o.user_key + ": " + o.help);
        else if (o.site_key[0]) row(o, std::string(o.help) + " (the site's alone: " + accepted(o) + ")");
    for (const OptionSpec& o : kSiteLimits) row(o, std::string(o.help) + " (" + accepted(o) + ")");
    for (int id = kAction; id < kSiteKeyCount; ++id) site_row(kSiteKeys[id]);
    return out;
}

// --hang-detect=KEY=VALUE,...: what users may say, within the site's limits.
std::string hang_detect_table() {
    std::string out = "| key | accepted | meaning |\n|---|---|---|\n";
    const char* limit_of[kDetectionOptionCount] = {};
    limit_of[kAlpha] = kSiteLimits[kMaxAlpha].site_key;
    limit_of[kInterval] = kSiteLimits[kMinInterval].site_key;
    limit_of[kRanks] = kSiteLimits[kMaxRanks].site_key;
    for (int id = 0; id < kDetectionOptionCount; ++id) {
        const OptionSpec& o = kDetectionOptions[id];
        if (!o.user_key[0]) continue;
        std::string accepted;
        if (id == kAlpha) accepted = "0 < P <= `" + std::string(limit_of[id]) + "`";
        else if (id == kInterval)
            accepted = "`" + std::string(limit_of[id]) + "` .. `" + format_ms(static_cast<int>(o.max)) + "`, with a unit";
        else if (limit_of[id]) accepted = format_value(o, o.min) + " .. `" + limit_of[id] + "`";
        else accepted = format_value(o, o.min) + " .. " + format_value(o, o.max);  // no site limit on it
        out += "| `" + std::string(o.user_key) + "=" + slurm_meta(o) + "` | " + accepted + " | " + cell(o.help) + " |\n";
    }
    return out;
}

}  // namespace

int run_options(const std::vector<std::string>& args) {
    const std::string usage =
        "Usage: jobsentry options [watch|plugstack|hang-detect]\n\n"
        "Prints the hang detector's options from their one spec as markdown tables: the flags of\n"
        "jobsentry watch and supervise, the plugstack.conf arguments of the site, the keys of\n"
        "--hang-detect. Without an argument, all three.\n";
    if (args.size() > 1 || (args.size() == 1 && (args[0] == "--help" || args[0] == "-h"))) {
        (args.size() > 1 ? std::cerr : std::cout) << usage;
        return args.size() > 1 ? 2 : 0;
    }
    const std::string which = args.empty() ? "" : args[0];
    if (which == "watch") std::cout << watch_table();
    else if (which == "plugstack") std::cout << plugstack_table();
    else if (which == "hang-detect") std::cout << hang_detect_table();
    else if (which.empty())
        std::cout << "## jobsentry watch, jobsentry supervise\n\n" << watch_table() << "\n## plugstack.conf\n\n"
                  << plugstack_table() << "\n## --hang-detect\n\n" << hang_detect_table();
    else {
        std::cerr << "jobsentry options: '" << which << "' is not a table; accepted values are watch, plugstack, "
                  << "hang-detect\n";
        return 2;
    }
    return 0;
}

}  // namespace jobsentry
