// Validation of the noise probe against a deterministic noise injector of our
// own: a per-thread POSIX timer (SIGEV_THREAD_ID) aimed at the probe thread
// fires every 1/f s and its signal handler spins d us, so the probe must see
// f*d more overhead than its baseline, detours at f Hz and the added detour
// time peaking in the histogram bin that holds d. Baseline and injected runs
// alternate in short pairs and the medians of the per-pair differences are
// judged, so that load from other processes on this shared machine falls on
// both sides alike.
//
// The probe is judged against the events the injector really made, counted
// by its handler: on a virtual machine whose host takes the vCPU away, timer
// expirations can be lost (a pending signal absorbs later ones), so the
// nominal f need not be what happened. A CI run's probe saw 354-1242 Hz of
// detours >= d/2 per pair for a nominal 1000 Hz; the injector did not count
// its events then, so which side fell short is not known. Now it does: the
// real rate is printed next to the nominal one, and the injector must reach
// half of it for the run to say anything.
//
// noise_inject [--cpu N] [--pairs P] [--run-ms MS] [--gap-ms MS] [--hz F] [--us D] [--rt]
// Exit status 0 when every check holds, 1 otherwise (each failure named).
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "tools/noise/noise_stats.h"
#include "tools/noise/probe.h"

using namespace jobsentry;

namespace {

uint64_t g_spin_ns = 100000;
uint64_t g_period_ns = 1000000;
volatile uint64_t g_first_expiry_ns = 0;  // set before the timer is armed
timer_t g_timer;
std::atomic<uint64_t> g_events{0};  // handler runs in the current injected run

// Each noise event lasts d from the timer's expiry, not from the handler's
// entry: the interrupt, the signal delivery and the handler's start are then
// part of the d, so the event has the known length whatever this machine's
// (here: a KVM guest's) delivery cost is. An expiry the thread missed while
// it was preempted counts from the latest one.
void spin_handler(int) {
    const uint64_t now = monotonic_ns();
    const uint64_t first = g_first_expiry_ns;
    const uint64_t expiry = now < first ? now : first + (now - first) / g_period_ns * g_period_ns;
    const uint64_t until = expiry + g_spin_ns;
    g_events.fetch_add(1, std::memory_order_relaxed);
    while (monotonic_ns() < until) {
    }
}

// SCHED_FIFO for the probe thread while it measures: on a machine shared with
// other work, CFS would otherwise take the PU away for milliseconds at a time
// (and nice does not help across autogroups), which both drowns the baseline
// and swallows timer expirations. Kernel noise (interrupts, the hypervisor)
// still reaches the thread; that is the baseline. Needs CAP_SYS_NICE.
std::atomic<bool> g_rt_refused{false};
void become_realtime() {
    sched_param p {};
    p.sched_priority = 1;
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &p) != 0) g_rt_refused = true;
}

// Detours of at least `min_ns` per second of measured time.
double rate_above(const PuResult& pu, uint64_t min_ns) {
    size_t n = 0;
    for (const Detour& d : pu.trace) n += d.duration_ns >= min_ns;
    return static_cast<double>(n) * 1e9 / static_cast<double>(pu.measured_ns);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Args {
    int cpu = -1;
    int pairs = 9;
    int run_ms = 400;
    double hz = 1000;
    double us = 100;
    bool rt = false;
    int gap_ms = 150;
    long threshold_ns = 0;  // 0: the probe's default, 9 x resolution
};

Args parse(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string k = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "noise_inject: %s needs a value\n", k.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (k == "--cpu") a.cpu = std::atoi(next());
        else if (k == "--pairs") a.pairs = std::atoi(next());
        else if (k == "--run-ms") a.run_ms = std::atoi(next());
        else if (k == "--hz") a.hz = std::atof(next());
        else if (k == "--us") a.us = std::atof(next());
        else if (k == "--rt") a.rt = true;
        else if (k == "--threshold-ns") a.threshold_ns = std::atol(next());
        else if (k == "--gap-ms") a.gap_ms = std::atoi(next());
        else {
            std::fprintf(stderr, "noise_inject: unknown option %s; accepted: --cpu --pairs --run-ms --gap-ms --threshold-ns --hz --us --rt\n",
                         k.c_str());
            std::exit(2);
        }
    }
    if (a.pairs < 1 || a.threshold_ns < 0 || a.run_ms < 50 || a.hz <= 0 || a.us <= 0 || a.us * a.hz >= 1e6) {
        std::fprintf(stderr, "noise_inject: accepted: --pairs >= 1, --run-ms >= 50, --hz > 0, --us > 0, hz*us < 1e6\n");
        std::exit(2);
    }
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    Args args = parse(argc, argv);
    std::vector<int> cpus;
    std::string error = check_noise_cpus("all", &cpus);
    if (!error.empty() || cpus.empty()) {
        std::fprintf(stderr, "noise_inject: %s\n", error.c_str());
        return 1;
    }
    // The last allowed PU by default: CPU 0 usually takes more of the
    // machine's interrupts.
    int cpu = args.cpu >= 0 ? args.cpu : cpus.back();
    g_spin_ns = static_cast<uint64_t>(args.us * 1000);

    struct sigaction sa {};
    sa.sa_handler = spin_handler;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGRTMIN, &sa, nullptr) != 0) {
        std::perror("noise_inject: sigaction");
        return 1;
    }

    ProbeSettings base;
    base.cpus = {cpu};
    base.duration_ns = static_cast<uint64_t>(args.run_ms) * 1000000ull;
    base.threshold_ns = static_cast<uint64_t>(args.threshold_ns);
    if (args.rt) base.before_measure = [](int) { become_realtime(); };
    ProbeSettings injected = base;
    g_period_ns = static_cast<uint64_t>(std::llround(1e9 / args.hz));
    injected.before_measure = [&base](int cpu_index) {
        if (base.before_measure) base.before_measure(cpu_index);
        sigevent sev {};
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev.sigev_signo = SIGRTMIN;
        sev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));  // this probe thread, no other
        if (timer_create(CLOCK_MONOTONIC, &sev, &g_timer) != 0) {
            std::perror("noise_inject: timer_create");
            std::exit(1);
        }
        g_events.store(0);
        // Absolute first expiry, so the handler knows every expiry's time.
        const uint64_t first = monotonic_ns() + g_period_ns;
        g_first_expiry_ns = first;
        itimerspec its {};
        its.it_interval.tv_nsec = static_cast<long>(g_period_ns % 1000000000);
        its.it_interval.tv_sec = static_cast<time_t>(g_period_ns / 1000000000);
        its.it_value.tv_nsec = static_cast<long>(first % 1000000000);
        its.it_value.tv_sec = static_cast<time_t>(first / 1000000000);
        timer_settime(g_timer, TIMER_ABSTIME, &its, nullptr);
    };
    injected.after_measure = [](int) { timer_delete(g_timer); };

    std::printf("noise_inject: PU %d, %d pairs of %d ms runs, threshold %s, injecting %.0f Hz x %.0f us (%.1f %%)%s\n",
                cpu, args.pairs, args.run_ms,
                args.threshold_ns ? (std::to_string(args.threshold_ns) + " ns").c_str() : "9 x resolution", args.hz,
                args.us, args.hz * args.us / 1e4, args.rt ? ", SCHED_FIFO while measuring" : "");
    // added_Hz: all detours above the threshold; event_Hz: detours of at
    // least d/2, injected minus baseline (see the frequency check below).
    // real_Hz, real_%: the events the injector's handler really made, and
    // the time they take at d each.
    std::printf("%4s %9s %9s %9s %9s %9s %9s %9s %9s %9s %7s %5s\n", "pair", "base_%", "inj_%", "added_%", "real_%",
                "base_Hz", "inj_Hz", "added_Hz", "event_Hz", "real_Hz", "res_ns", "full");
    std::vector<double> added_pct, added_hz, event_hz, resolutions, real_hz, pct_error, hz_ratio;
    const uint64_t d_ns = static_cast<uint64_t>(args.us * 1000);
    std::map<uint64_t, double> added_bins;  // low_ns -> injected minus baseline counts
    bool full = false;
    for (int i = 0; i < args.pairs; ++i) {
        // Alternate the order, so a trend in the machine's load favours neither side.
        PuResult b, j;
        // The gaps keep a SCHED_FIFO thread well under the kernel's RT
        // throttling limit (95 % of each second) and leave the PU to others.
        auto gap = [&args] { std::this_thread::sleep_for(std::chrono::milliseconds(args.gap_ms)); };
        if (i % 2 == 0) {
            b = run_noise_probe(base).pus.at(0);
            gap();
            j = run_noise_probe(injected).pus.at(0);
        } else {
            j = run_noise_probe(injected).pus.at(0);
            gap();
            b = run_noise_probe(base).pus.at(0);
        }
        gap();
        if (!b.error.empty() || !j.error.empty()) {
            std::fprintf(stderr, "noise_inject: %s%s\n", b.error.c_str(), j.error.c_str());
            return 1;
        }
        full = full || b.buffer_full || j.buffer_full;
        added_pct.push_back(j.stats.noise_percent - b.stats.noise_percent);
        added_hz.push_back(j.stats.frequency_hz - b.stats.frequency_hz);
        event_hz.push_back(rate_above(j, d_ns / 2) - rate_above(b, d_ns / 2));
        real_hz.push_back(static_cast<double>(g_events.load()) * 1e9 / static_cast<double>(j.measured_ns));
        const double real_pct = real_hz.back() * args.us / 1e4;
        pct_error.push_back(added_pct.back() - real_pct);
        hz_ratio.push_back(real_hz.back() > 0 ? event_hz.back() / real_hz.back() : 0);
        resolutions.push_back(b.resolution_ns);
        resolutions.push_back(j.resolution_ns);
        for (const HistogramBin& bin : j.stats.histogram) added_bins[bin.low_ns] += static_cast<double>(bin.count);
        for (const HistogramBin& bin : b.stats.histogram) added_bins[bin.low_ns] -= static_cast<double>(bin.count);
        std::printf("%4d %9.3f %9.3f %9.3f %9.3f %9.1f %9.1f %9.1f %9.1f %9.1f %7.1f %5s\n", i, b.stats.noise_percent,
                    j.stats.noise_percent, added_pct.back(), real_pct, b.stats.frequency_hz, j.stats.frequency_hz,
                    added_hz.back(), event_hz.back(), real_hz.back(), std::max(b.resolution_ns, j.resolution_ns),
                    b.buffer_full || j.buffer_full ? "yes" : "no");
    }
    // The peak is where the added detour TIME is, not the added count: the
    // machine's own sub-microsecond detours change by tens of thousands a
    // second between runs of a loaded CI machine (one run: 4,490 to 57,552 Hz
    // across baselines), which outnumbers 1,000 injected events a second in
    // their bin but weighs a thousandth of them in time.
    auto added_time = [](const auto& bin) { return bin.second * static_cast<double>(bin.first); };
    auto peak = std::max_element(added_bins.begin(), added_bins.end(),
                                 [&](const auto& x, const auto& y) { return added_time(x) < added_time(y); });
    const uint64_t peak_low = peak->first;
    const uint64_t peak_high = histogram_bin_low(histogram_bin(peak_low) + 1);
    const double pct = median(added_pct), hz = median(event_hz), res = median(resolutions);
    const double real = median(real_hz), pct_err = median(pct_error), ratio = median(hz_ratio);
    const double max_res = *std::max_element(resolutions.begin(), resolutions.end());
    std::printf("injector: %.1f Hz of real events (nominal %.0f Hz)\n"
                "median added overhead %.3f %%, %+.3f points from the real events' (want +- 2); median added "
                "frequency of detours >= d/2 %.1f Hz, %.3f of the real events' (want 1 +- 0.1; of all detours %.1f Hz);\n"
                "added-histogram peak by time [%.1f us, %.1f us) (want it to hold %.0f us); resolution median %.1f ns, "
                "max %.1f ns (want < 100)\n",
                real, args.hz, pct, pct_err, hz, ratio, median(added_hz), static_cast<double>(peak_low) / 1e3,
                static_cast<double>(peak_high) / 1e3, args.us, res, max_res);

    if (g_rt_refused) std::printf("note: SCHED_FIFO was refused (no CAP_SYS_NICE); measured at normal priority\n");
    int failures = 0;
    auto check = [&failures](bool ok, const char* what) {
        if (!ok) {
            std::printf("FAIL: %s\n", what);
            ++failures;
        }
    };
    check(real >= 0.5 * args.hz, "the injector made fewer than half the nominal events (this machine lost timer "
                                 "expirations); the probe was not validated");
    check(std::abs(pct_err) <= 2, "added overhead is not the real events' time +- 2 percentage points");
    // Counted from d/2 up: an injected event that coincides with a kernel
    // tick absorbs that tick's detour, so "all detours, injected minus
    // baseline" undercounts by the ticks absorbed (a fixed phase per run).
    check(std::abs(ratio - 1) <= 0.1, "added frequency of detours >= d/2 is not within 10 % of the real events'");
    check(peak_low <= d_ns && d_ns < peak_high, "the added detours' histogram peak is not the bin holding d");
    check(max_res < 100, "resolution is not below 100 ns");
    check(!full, "a detour buffer filled");
    if (failures == 0) std::printf("PASS: the probe measures the injected noise\n");
    return failures ? 1 : 0;
}
