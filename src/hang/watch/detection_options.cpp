#include "hang/watch/detection_options.h"

#include <sstream>

namespace po = boost::program_options;

namespace jobsentry {

void add_detection_options(po::options_description& d, DetectionSettings& o) {
    // clang-format off
    d.add_options()
        ("alpha", po::value(&o.alpha)->default_value(o.alpha),
            "significance level: claim a hang when q^k <= alpha; 0 < alpha < 0.5")
        ("interval-ms", po::value(&o.interval_ms)->default_value(o.interval_ms),
            "initial sampling interval I in ms (pauses are rand(I) + I/2); 10..60000")
        ("max-interval-ms", po::value(&o.max_interval_ms)->default_value(o.max_interval_ms),
            "cap for the doublings of I when samples are not random; >= interval-ms, <= 600000")
        ("ranks", po::value(&o.ranks)->default_value(o.ranks),
            "number of ranks monitored, chosen at random; 1..4096")
        ("verbose,v", po::bool_switch(&o.verbose), "print every sample and judgement on stderr")
        ("seed", po::value(&o.seed)->default_value(o.seed), "random seed; 0 takes one from the clock")
        ("verify-rounds", po::value(&o.verify_rounds)->default_value(o.verify_rounds),
            "fresh samples of every rank taken to verify a hang; 2..50")
        ("spin-verify-ms", po::value(&o.spin_verify_ms)->default_value(o.spin_verify_ms),
            "then, for suspects computing outside MPI, how long to watch them every 100 ms for a change of "
            "function before calling it a hang; 0..60000");
    // clang-format on
}

std::string check_detection_settings(const DetectionSettings& o) {
    std::ostringstream e;
    if (!(o.alpha > 0 && o.alpha < 0.5)) e << "--alpha " << o.alpha << ": accepted values are 0 < alpha < 0.5";
    else if (o.interval_ms < 10 || o.interval_ms > 60000)
        e << "--interval-ms " << o.interval_ms << ": accepted values are 10..60000";
    else if (o.max_interval_ms < o.interval_ms || o.max_interval_ms > 600000)
        e << "--max-interval-ms " << o.max_interval_ms << ": accepted values are interval-ms..600000";
    else if (o.ranks < 1 || o.ranks > 4096) e << "--ranks " << o.ranks << ": accepted values are 1..4096";
    else if (o.verify_rounds < 2 || o.verify_rounds > 50)
        e << "--verify-rounds " << o.verify_rounds << ": accepted values are 2..50";
    else if (o.spin_verify_ms < 0 || o.spin_verify_ms > 60000)
        e << "--spin-verify-ms " << o.spin_verify_ms << ": accepted values are 0..60000";
    return e.str();
}

}  // namespace jobsentry
