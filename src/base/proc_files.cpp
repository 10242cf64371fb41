#include "base/proc_files.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace jobsentry {

std::optional<std::string> read_bounded(const std::string& path, size_t max_bytes) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    while (out.size() < max_bytes) {
        size_t want = std::min(sizeof buf, max_bytes - out.size());
        ssize_t n = ::read(fd, buf, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            ::close(fd);
            errno = saved;
            return std::nullopt;
        }
        if (n == 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
}

std::optional<ProcStat> parse_proc_stat(const std::string& text) {
    auto open = text.find('(');
    auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
    ProcStat st;
    st.comm = text.substr(open + 1, close - open - 1);
    // Fields after the comm, numbered as in proc(5): 3 state, 4 ppid, 14 utime, 15 stime,
    // 22 starttime, then (optional: older texts and tests end at 22) 27 endcode, 28 startstack.
    // Split by hand: a stream per read was a tenth of a sample's parsing.
    size_t at = close + 1;
    for (int index = 3; index <= 28; ++index) {
        at = text.find_first_not_of(" \t\n\v\f\r", at);
        if (at == std::string::npos) return index > 22 ? std::optional<ProcStat>(st) : std::nullopt;
        const size_t end = std::min(text.find_first_of(" \t\n\v\f\r", at), text.size());
        const char* field = text.c_str() + at;
        switch (index) {
            case 3: st.state = field[0]; break;
            case 4: st.ppid = static_cast<pid_t>(std::strtol(field, nullptr, 10)); break;
            case 14: st.user_ticks = std::strtoull(field, nullptr, 10); st.cpu_ticks += st.user_ticks; break;
            case 15: st.cpu_ticks += std::strtoull(field, nullptr, 10); break;
            case 22: st.start_time = std::strtoull(field, nullptr, 10); break;
            case 27: st.end_code = std::strtoull(field, nullptr, 10); break;
            case 28: st.start_stack = std::strtoull(field, nullptr, 10); break;
            default: break;
        }
        at = end;
    }
    return st;
}

std::optional<ProcStat> read_proc_stat(pid_t pid) {
    auto text = read_bounded("/proc/" + std::to_string(pid) + "/stat", 4096);
    if (!text) return std::nullopt;
    return parse_proc_stat(*text);
}

std::optional<ProcStat> read_thread_stat(pid_t pid, pid_t tid) {
    auto text = read_bounded("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat", 4096);
    if (!text) return std::nullopt;
    return parse_proc_stat(*text);
}

std::optional<bool> process_owned_by(pid_t pid, uid_t uid) {
    auto text = read_bounded("/proc/" + std::to_string(pid) + "/status", 16384);
    if (!text) return std::nullopt;
    return status_owned_by(*text, uid);
}

std::optional<bool> status_owned_by(const std::string& text, uid_t uid) {
    auto at = text.find("\nUid:");
    if (at == std::string::npos) return std::nullopt;
    std::istringstream line(text.substr(at + 5, text.find('\n', at + 1) - at - 5));
    int count = 0;
    unsigned long value;
    while (line >> value) {
        if (value != uid) return false;
        ++count;
    }
    if (count != 4) return std::nullopt;
    return true;
}

std::optional<AddressRange> mapping_containing(const std::string& text, uint64_t addr) {
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos) eol = text.size();
        const char* line = text.c_str() + pos;
        char* end = nullptr;
        errno = 0;
        const unsigned long long lo = std::strtoull(line, &end, 16);
        if (end == line || *end != '-' || errno) return std::nullopt;
        const char* hi_at = end + 1;
        const unsigned long long hi = std::strtoull(hi_at, &end, 16);
        if (end == hi_at || errno || hi < lo) return std::nullopt;
        if (addr >= lo && addr < hi) {
            // The permissions after one space: "r-xp"; an 'x' third makes it code.
            const bool executable = end[0] == ' ' && end[1] && end[2] && end[3] == 'x';
            return AddressRange{lo, hi, executable};
        }
        pos = eol + 1;
    }
    return std::nullopt;
}

std::optional<AddressRange> read_mapping_containing(pid_t pid, uint64_t addr) {
    auto text = read_bounded("/proc/" + std::to_string(pid) + "/maps", 16u << 20);
    return text ? mapping_containing(*text, addr) : std::nullopt;
}

bool status_traced(const std::string& text) {
    auto at = text.find("\nTracerPid:");
    return at != std::string::npos && std::strtol(text.c_str() + at + 11, nullptr, 10) != 0;
}

std::optional<bool> status_signal_pending(const std::string& text, int sig) {
    if (sig < 1 || sig > 64) return std::nullopt;
    bool found = false, pending = false;
    for (const char* key : {"\nSigPnd:", "\nShdPnd:"}) {
        const size_t at = text.find(key);
        if (at == std::string::npos) continue;
        char* end = nullptr;
        const unsigned long long mask = std::strtoull(text.c_str() + at + std::strlen(key), &end, 16);
        if (end == text.c_str() + at + std::strlen(key)) continue;
        found = true;
        pending = pending || (mask >> (sig - 1)) & 1;
    }
    return found ? std::optional<bool>(pending) : std::nullopt;
}

namespace {
// A decimal number at p, at most UINT64_MAX; p is left after it.
std::optional<uint64_t> parse_decimal(const char*& p) {
    if (*p < '0' || *p > '9') return std::nullopt;
    uint64_t n = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
        if (n > (UINT64_MAX - 9) / 10) return std::nullopt;
        n = n * 10 + static_cast<uint64_t>(*p - '0');
    }
    return n;
}
}  // namespace

std::optional<SchedStat> parse_schedstat(const std::string& text) {
    const char* p = text.c_str();
    auto run = parse_decimal(p);
    if (!run || *p != ' ') return std::nullopt;
    ++p;
    auto wait = parse_decimal(p);
    if (!wait) return std::nullopt;
    return SchedStat{*run, *wait};
}

std::optional<SchedStat> read_thread_schedstat(pid_t pid, pid_t tid) {
    auto text = read_bounded("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/schedstat", 256);
    if (!text) return std::nullopt;
    return parse_schedstat(*text);
}

std::vector<std::pair<std::string, std::string>> parse_proc_cgroup(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        const size_t first = line.find(':');
        const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        out.emplace_back(line.substr(first + 1, second - first - 1), line.substr(second + 1));
    }
    return out;
}

std::optional<std::string> cpu_stat_path(const std::string& proc_cgroup_text) {
    // "4:cpu,cpuacct:/slurm/uid_1/job_7" (v1) or "0::/system.slice/x" (v2); v1's CPU controller first.
    std::optional<std::string> v1, v2;
    for (const auto& [controllers, path] : parse_proc_cgroup(proc_cgroup_text)) {
        if (path.empty() || path[0] != '/' || path.find("/..") != std::string::npos) continue;
        const std::string tail = path == "/" ? "" : path;
        if (controllers.empty()) {
            v2 = "/sys/fs/cgroup" + tail + "/cpu.stat";
            continue;
        }
        for (size_t c = 0; c <= controllers.size();) {
            size_t comma = controllers.find(',', c);
            if (comma == std::string::npos) comma = controllers.size();
            if (comma - c == 3 && controllers.compare(c, 3, "cpu") == 0)
                v1 = "/sys/fs/cgroup/" + controllers + tail + "/cpu.stat";
            c = comma + 1;
        }
    }
    return v1 ? v1 : v2;
}

// The number on the line of `text` that begins with `key` (blanks after the key skipped).
static std::optional<uint64_t> keyed_line_value(const std::string& text, const std::string& key) {
    size_t at = 0;
    if (text.compare(0, key.size(), key) != 0) {
        at = text.find("\n" + key);
        if (at == std::string::npos) return std::nullopt;
        ++at;
    }
    const char* p = text.c_str() + at + key.size();
    while (*p == ' ' || *p == '\t') ++p;
    return parse_decimal(p);
}

std::optional<uint64_t> cpu_stat_nr_throttled(const std::string& cpu_stat_text) {
    return keyed_line_value(cpu_stat_text, "nr_throttled ");
}

std::optional<uint64_t> read_cpu_throttled_periods(pid_t pid) {
    auto cgroups = read_bounded("/proc/" + std::to_string(pid) + "/cgroup", 4096);
    if (!cgroups) return std::nullopt;
    auto path = cpu_stat_path(*cgroups);
    if (!path) return std::nullopt;
    auto stat = read_bounded(*path, 1024);
    if (!stat) return std::nullopt;
    return cpu_stat_nr_throttled(*stat);
}

std::optional<uint64_t> proc_io_written_bytes(const std::string& proc_io_text) {
    return keyed_line_value(proc_io_text, "wchar:");
}

std::optional<uint64_t> status_voluntary_switches(const std::string& status_text) {
    static const std::string key = "\nvoluntary_ctxt_switches:";
    const size_t at = status_text.find(key);
    if (at == std::string::npos) return std::nullopt;
    const char* p = status_text.c_str() + at + key.size();
    while (*p == ' ' || *p == '\t') ++p;
    return parse_decimal(p);
}

std::optional<uint64_t> read_voluntary_switches(pid_t pid, pid_t tid) {
    auto text = read_bounded("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/status", 16384);
    if (!text) return std::nullopt;
    return status_voluntary_switches(*text);
}

int cpus_allowed_together(const std::vector<pid_t>& pids) {
    cpu_set_t all;
    CPU_ZERO(&all);
    bool any = false;
    for (pid_t pid : pids) {
        cpu_set_t one;
        CPU_ZERO(&one);
        if (sched_getaffinity(pid, sizeof one, &one) != 0) continue;
        CPU_OR(&all, &all, &one);
        any = true;
    }
    return any ? CPU_COUNT(&all) : 0;
}

}  // namespace jobsentry
