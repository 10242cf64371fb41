#include "tools/simulator/noise.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace jobsentry::sim {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

[[noreturn]] void bad(const std::string& name, size_t line, const std::string& what) {
    throw std::runtime_error(name + ":" + std::to_string(line) + ": " + what);
}

bool parse_u64(const std::string& s, std::uint64_t& out) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(s);
    return true;
}

}  // namespace

NoiseTrace read_noise_trace(std::istream& in, const std::string& name) {
    NoiseTrace t;
    std::string line;
    size_t n = 0;
    Time explicit_period = 0;
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (line[0] == '#') {
            std::istringstream c(line.substr(1));
            std::string key, value;
            if (c >> key >> value && key == "period_ns" && !parse_u64(value, explicit_period))
                bad(name, n, "expected '# period_ns N' with N a whole number of nanoseconds, found '" + line + "'");
            continue;
        }
        size_t tab = line.find('\t');
        std::uint64_t start = 0, duration = 0;
        if (tab == std::string::npos || !parse_u64(line.substr(0, tab), start) ||
            !parse_u64(line.substr(tab + 1), duration))
            bad(name, n, "expected 'start_ns<TAB>duration_ns' (two whole numbers of nanoseconds), found '" + line +
                             "'");
        if (duration == 0) continue;
        if (!t.detours.empty() && start < t.detours.back().start)
            bad(name, n, "expected detours in order of start time, found start " + std::to_string(start) +
                             " after " + std::to_string(t.detours.back().start));
        if (!t.detours.empty() && start <= t.detours.back().start + t.detours.back().duration) {
            Detour& last = t.detours.back();  // overlapping or touching: one detour
            last.duration = std::max(last.start + last.duration, start + duration) - last.start;
        } else {
            t.detours.push_back({start, duration});
        }
    }
    if (in.bad()) throw std::runtime_error(name + ": read error");
    Time end = t.detours.empty() ? 0 : t.detours.back().start + t.detours.back().duration;
    t.period = explicit_period ? explicit_period : end;
    if (explicit_period && explicit_period < end)
        bad(name, n, "period_ns " + std::to_string(explicit_period) + " is shorter than the trace (" +
                         std::to_string(end) + " ns)");
    Time busy = 0;
    for (const Detour& d : t.detours) busy += d.duration;
    if (!t.detours.empty() && busy >= t.period)
        throw std::runtime_error(name + ": the detours cover the whole trace; no CPU time would be left "
                                        "(add '# period_ns N' with the measured span)");
    return t;
}

NoiseTrace read_noise_trace_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open the noise trace");
    return read_noise_trace(in, path);
}

Noise::Noise(NoiseTrace trace, std::uint64_t seed, bool cosched)
    : trace_(std::move(trace)), seed_(seed), cosched_(cosched) {}

Noise::Noise(NoiseTrace trace, std::vector<Time> offsets) : trace_(std::move(trace)), offsets_(std::move(offsets)) {}

Time Noise::offset(std::uint32_t rank) const {
    if (!active()) return 0;
    if (!offsets_.empty()) return rank < offsets_.size() ? offsets_[rank] % trace_.period : 0;
    return splitmix64(seed_ ^ splitmix64(cosched_ ? 0 : rank + 1)) % trace_.period;
}

Time Noise::advance_noisy(std::uint32_t rank, Time t, Time work) const {
    const std::vector<Detour>& d = trace_.detours;
    const Time period = trace_.period;
    Time local = (t + offset(rank)) % period;  // position in the trace
    Time base = t - local;                     // absolute time of this repetition's start (may wrap; only differences matter)
    size_t i = static_cast<size_t>(
        std::upper_bound(d.begin(), d.end(), local, [](Time v, const Detour& x) { return v < x.start; }) - d.begin());
    if (i > 0 && d[i - 1].start + d[i - 1].duration > local) local = d[i - 1].start + d[i - 1].duration;  // inside one
    for (;;) {
        Time next = i < d.size() ? d[i].start : period;
        if (next >= local && work <= next - local) return base + local + work;
        if (next > local) work -= next - local;
        if (i < d.size()) {
            local = d[i].start + d[i].duration;
            ++i;
        } else {
            base += period;
            local = 0;
            i = 0;
            if (!d.empty() && d[0].start == 0) {
                local = d[0].duration;
                i = 1;
            }
        }
    }
}

}  // namespace jobsentry::sim
