#include "hang/model/sample_record.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "hang/model/progress.h"

namespace jobsentry {

namespace {
constexpr uint64_t kDigestMask = 0xffffffffull;  // the 32 bits a record keeps
}

std::string sample_record(const StackSample& s) {
    std::ostringstream out;
    char taken[32];
    std::snprintf(taken, sizeof taken, "%.3f", s.taken_at);
    out << s.state << ",p=" << std::hex << (progress_signature(s) & kDigestMask) << std::dec << ",c=" << s.cpu_ticks
        << ",m=" << s.main_cpu_ticks << ",u=" << s.main_user_ticks << ",t=" << taken;
    if (s.sched_known) out << ",r=" << s.main_run_ns << ",w=" << s.main_wait_ns;
    // s: how long the rank took to stop, in µs (a rank off its CPU stops only when it is next
    // scheduled): which samples caught it on the CPU (docs/benchmarks.md, "Samples taken on the CPU").
    if (s.stop_seconds > 0) out << ",s=" << static_cast<uint64_t>(s.stop_seconds * 1e6 + 0.5);
    out << ",i=" << (s.in_mpi ? 1 : 0);
    const std::string call = outermost_mpi_call(s);
    if (s.in_mpi && !call.empty() && call.find_first_of(", \t") == std::string::npos) out << ",f=" << call;
    return out.str();
}

std::optional<StackSample> parse_sample_record(std::string_view text) {
    if (text.size() < 2 || text[1] != ',') return std::nullopt;
    StackSample s;
    s.status = SampleStatus::ok;
    s.digest_only = true;
    s.state = text[0];
    bool has_p = false, has_t = false, has_r = false, has_w = false;
    size_t at = 2;
    while (at < text.size()) {
        size_t end = text.find(',', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view field = text.substr(at, end - at);
        at = end + 1;
        if (field.size() < 3 || field[1] != '=') return std::nullopt;
        const std::string value(field.substr(2));
        char* stop = nullptr;
        const char key = field[0];
        if (key == 'f') {
            s.mpi_call = value;
            continue;
        }
        if (key == 't') {
            s.taken_at = std::strtod(value.c_str(), &stop);
            has_t = true;
        } else {
            const uint64_t n = std::strtoull(value.c_str(), &stop, key == 'p' ? 16 : 10);
            switch (key) {
                case 'p': s.progress_digest = n; has_p = true; break;
                case 'c': s.cpu_ticks = n; break;
                case 'm': s.main_cpu_ticks = n; break;
                case 'u': s.main_user_ticks = n; break;
                case 'r': s.main_run_ns = n; has_r = true; break;
                case 'w': s.main_wait_ns = n; has_w = true; break;
                case 's': s.stop_seconds = static_cast<double>(n) / 1e6; break;
                case 'i': s.in_mpi = n != 0; break;
                default: return std::nullopt;
            }
        }
        if (!stop || *stop != '\0') return std::nullopt;
    }
    if (!has_p || !has_t || has_r != has_w) return std::nullopt;
    s.sched_known = has_r;
    return s;
}

}  // namespace jobsentry
