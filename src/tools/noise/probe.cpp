#include "tools/noise/probe.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <system_error>
#include <thread>

#include "base/proc_files.h"
#include "tools/noise/cpu_list.h"
#include "tools/noise/pu_topology.h"

namespace jobsentry {

// The processor's name, as /proc/cpuinfo's first "model name" says it (bounded); "" when absent.
std::string cpu_model_name() {
    const auto text = read_bounded("/proc/cpuinfo", 1 << 20);
    if (!text) return "";
    const std::string key = "model name";
    for (size_t at = 0; at < text->size();) {
        size_t end = text->find('\n', at);
        if (end == std::string::npos) end = text->size();
        const std::string line = text->substr(at, end - at);
        at = end + 1;
        if (line.rfind(key, 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(colon + 1);
        name.erase(0, name.find_first_not_of(" \t"));
        return name.substr(0, 200);
    }
    return "";
}

namespace {

constexpr int kCalibrationIterations = 200000;

struct RawDetour {
    uint64_t start;  // clock units from the start of the measurement
    uint64_t length;
};

struct SpinOutcome {
    uint64_t elapsed = 0;  // clock units measured
    size_t detours = 0;
    bool full = false;
};

// The shortest iteration of the same kind of loop as spin(): the resolution.
template <class Clock>
uint64_t shortest_iteration() {
    uint64_t best = UINT64_MAX;
    uint64_t prev = Clock::now();
    for (int i = 0; i < kCalibrationIterations; ++i) {
        uint64_t now = Clock::now();
        best = std::min(best, now - prev);
        prev = now;
    }
    return std::max<uint64_t>(best, 1);
}

// The measurement loop: no allocation, no system call, one clock read and
// two compares per iteration; detours go into the preallocated buffer.
template <class Clock>
SpinOutcome spin(uint64_t length, uint64_t threshold, RawDetour* buffer, size_t capacity) {
    SpinOutcome out;
    const uint64_t start = Clock::now();
    const uint64_t end = start + length;
    uint64_t prev = start;
    for (;;) {
        const uint64_t now = Clock::now();
        const uint64_t step = now - prev;
        if (__builtin_expect(step > threshold, 0)) {
            if (out.detours == capacity) {
                out.full = true;
                break;
            }
            buffer[out.detours++] = {prev - start, step};
        }
        prev = now;
        if (now >= end) break;
    }
    out.elapsed = prev - start;
    return out;
}

struct Shared {
    const ProbeSettings* settings;
    const PuTopology* topology;
    bool use_tsc;
    double ticks_per_ns;  // 1 for the monotonic clock
    std::atomic<int> ready{0};
    std::atomic<int> threads{0};  // lowered if a thread cannot be started, so the barrier still opens
};

template <class Clock>
void measure_pu(Shared& shared, PuResult& result) {
    const ProbeSettings& s = *shared.settings;
    std::string pin_error = shared.topology->pin_this_thread(result.cpu);
    // Allocated and touched here, after pinning: first-touch puts the pages
    // on the PU's own memory and no page fault happens in the loop.
    std::vector<RawDetour> buffer(pin_error.empty() ? s.max_detours : 0);
    uint64_t resolution = pin_error.empty() ? shortest_iteration<Clock>() : 0;

    // Every PU starts measuring together, so their traces share one window.
    shared.ready.fetch_add(1);
    while (shared.ready.load() < shared.threads) {
    }
    if (!pin_error.empty()) {
        result.error = pin_error;
        return;
    }
    const double tpn = shared.ticks_per_ns;
    result.resolution_ns = static_cast<double>(resolution) / tpn;
    uint64_t threshold = s.threshold_ns
                             ? static_cast<uint64_t>(std::llround(static_cast<double>(s.threshold_ns) * tpn))
                             : static_cast<uint64_t>(std::ceil(s.threshold_factor * static_cast<double>(resolution)));
    result.threshold_ns = static_cast<uint64_t>(std::llround(static_cast<double>(threshold) / tpn));
    const uint64_t length = static_cast<uint64_t>(static_cast<double>(s.duration_ns) * tpn);

    if (s.before_measure) s.before_measure(result.cpu);
    SpinOutcome o = spin<Clock>(length, threshold, buffer.data(), buffer.size());
    if (s.after_measure) s.after_measure(result.cpu);

    auto ns = [tpn](uint64_t ticks) { return static_cast<uint64_t>(std::llround(static_cast<double>(ticks) / tpn)); };
    result.measured_ns = ns(o.elapsed);
    result.buffer_full = o.full;
    result.trace.reserve(o.detours);
    for (size_t i = 0; i < o.detours; ++i) result.trace.push_back({ns(buffer[i].start), ns(buffer[i].length)});
    result.stats = detour_stats(result.trace, result.measured_ns);
}

}  // namespace

std::string check_noise_cpus(const std::string& list, std::vector<int>* cpus) {
    PuTopology topology;
    if (!topology.error().empty()) return topology.error();
    CpuListParse parsed = parse_cpu_list(list, topology.existing(), topology.allowed());
    *cpus = parsed.cpus;
    return parsed.error;
}

ProbeResult run_noise_probe(const ProbeSettings& settings) {
    ProbeResult result;
    result.duration_ns = settings.duration_ns;
    PuTopology topology;
    Shared shared;
    shared.settings = &settings;
    shared.topology = &topology;
#if JOBSENTRY_HAVE_TSC
    shared.use_tsc = settings.clock == ClockChoice::tsc ||
                     (settings.clock == ClockChoice::automatic && tsc_is_invariant());
#else
    shared.use_tsc = false;
#endif
    shared.ticks_per_ns = shared.use_tsc ? calibrate_tsc_ticks_per_ns() : 1.0;
    result.cpu_model = cpu_model_name();
    result.clock = shared.use_tsc ? "tsc" : "clock_gettime";
    result.tsc_ghz = shared.use_tsc ? shared.ticks_per_ns : 0;
    shared.threads = static_cast<int>(settings.cpus.size());

    result.pus.resize(settings.cpus.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < settings.cpus.size(); ++i) {
        result.pus[i].cpu = settings.cpus[i];
        PuResult& pu = result.pus[i];
        try {
            threads.emplace_back([&shared, &pu] {
#if JOBSENTRY_HAVE_TSC
                if (shared.use_tsc) return measure_pu<TscClock>(shared, pu);
#endif
                measure_pu<MonotonicClock>(shared, pu);
            });
        } catch (const std::system_error& e) {
            pu.error = std::string("cannot start a probe thread: ") + e.what();
            shared.threads.fetch_sub(1);
        }
    }
    for (auto& t : threads) t.join();
    return result;
}

}  // namespace jobsentry
