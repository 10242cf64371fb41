// The input of the SPANK targets: "<plugstack.conf arguments>\n<option value>".
// The arguments are split on blanks, as Slurm splits a plugstack.conf line,
// and parsed by parse_site_policy as slurm_spank_init does; arguments that do
// not parse leave the defaults (the plugin is then disabled and never parses
// option values, but defaults still make a useful policy for the value).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "slurm/plugin/policy.h"

namespace jobsentry::fuzz {

inline std::vector<std::string> plugstack_args(const std::string& line) {
    std::vector<std::string> args;
    size_t pos = 0;
    while (pos < line.size()) {
        const size_t end = std::min(line.find_first_of(" \t", pos), line.size());
        if (end > pos) args.push_back(line.substr(pos, end - pos));
        pos = end + 1;
    }
    return args;
}

struct PolicyAndValue {
    SitePolicy policy;
    std::string value;  // as Slurm hands it over: a C string, so cut at the first NUL
    bool site_ok = false;
};

inline PolicyAndValue policy_and_value(const std::string& text) {
    auto [line, value] = split_once(text, '\n');
    if (text.find('\n') == std::string::npos) std::swap(line, value);  // no site line: the value alone
    PolicyAndValue out;
    PolicyParse site = parse_site_policy(plugstack_args(line), "/usr/bin/jobsentry");
    out.site_ok = site.error.empty();
    if (out.site_ok) out.policy = site.policy;
    out.value = value.c_str();
    return out;
}

}  // namespace jobsentry::fuzz
