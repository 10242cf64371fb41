#include "tools/noise/cpu_list.h"

#include <algorithm>
#include <sstream>

namespace jobsentry {

namespace {

bool parse_index(const std::string& s, int* out) {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    *out = std::stoi(s);
    return true;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

std::string format_cpu_list(const std::vector<int>& cpus) {
    std::ostringstream out;
    for (size_t i = 0; i < cpus.size();) {
        size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
        out << (i ? "," : "") << cpus[i];
        if (j > i) out << "-" << cpus[j];
        i = j + 1;
    }
    return out.str();
}

namespace {

CpuListParse parse_cpu_items(const std::string& text, const std::vector<int>& existing,
                             const std::vector<int>& allowed) {
    CpuListParse out;
    const std::string accepted = "accepted: 'all' or a list of PU numbers and ranges such as 0,2-3 from the allowed set " +
                                 format_cpu_list(allowed);
    if (text == "all") {
        out.cpus = allowed;
        std::sort(out.cpus.begin(), out.cpus.end());
        if (out.cpus.empty()) out.error = "--cpus all: this process may run on no PU";
        return out;
    }
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        size_t dash = item.find('-');
        int first = 0, last = 0;
        bool ok = dash == std::string::npos ? parse_index(item, &first) && parse_index(item, &last)
                                            : parse_index(item.substr(0, dash), &first) &&
                                                  parse_index(item.substr(dash + 1), &last) && first <= last;
        if (!ok) {
            out.error = "--cpus " + text + ": '" + item + "' is not a PU number or range; " + accepted;
            return out;
        }
        for (int cpu = first; cpu <= last; ++cpu) {
            if (!contains(existing, cpu)) {
                out.error = "--cpus " + text + ": PU " + std::to_string(cpu) + " does not exist on this machine (PUs " +
                            format_cpu_list(existing) + ")";
                return out;
            }
            if (!contains(allowed, cpu)) {
                out.error = "--cpus " + text + ": PU " + std::to_string(cpu) +
                            " is outside the set this process may run on (" + format_cpu_list(allowed) + ")";
                return out;
            }
            out.cpus.push_back(cpu);
        }
    }
    if (text.empty() || text.back() == ',' || out.cpus.empty()) out.error = "--cpus '" + text + "': " + accepted;
    std::sort(out.cpus.begin(), out.cpus.end());
    out.cpus.erase(std::unique(out.cpus.begin(), out.cpus.end()), out.cpus.end());
    return out;
}

}  // namespace

CpuListParse parse_cpu_list(const std::string& text, const std::vector<int>& existing,
                            const std::vector<int>& allowed) {
    CpuListParse out = parse_cpu_items(text, existing, allowed);
    if (!out.error.empty()) out.cpus.clear();
    return out;
}

}  // namespace jobsentry
