// LogGP parameters from ping-pong measurements between two ranks (pure): the
// medians of the repetitions per message size, then least-squares lines over
// the larger half of the sizes for the per-byte slopes G and O, and the
// smallest size for the per-message constants L, o, g; after Hoefler, Lichei, Rehm ("Low-Overhead LogGP Parameter
// Assessment", Netgauge) and Hoefler et al. ("LogGP in theory and practice"):
//   rtt(s)   = PRTT(1,0,s): one message there, one back   = 2 (L + 2o + (s-1) max(O, G))
//   burst(s) = PRTT(n,0,s): n messages there back to back, one back
//            = rtt(s) + (n-1) (g + (s-1)G)
//   send(s)  = time in the send call                       = o_s + (s-1) O_s
//   recv(s)  = time in the receive call of a message already there = o_r + (s-1) O_r
//   delayed(s) = PRTT(n,d,s), d ns after each send     = rtt(s) + (n-1) (d + o_s + (s-1)O_s)
//            (Netgauge's o_s; shown beside the call time as a cross-check)
// o and O are the means of the send and receive sides (the simulator has one
// o and one O); L = rtt(s0)/2 - 2o - (s0-1) max(O, G) at the smallest size s0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/simulator/params.h"

namespace jobsentry::loggp {

// The samples of one message size, in ns.
struct SizeSamples {
    std::uint64_t bytes = 1;
    int burst_n = 2;  // n of PRTT(n,0,s), >= 2
    std::vector<double> rtt, burst, send, recv;
    double delay = 0;            // d of PRTT(n,d,s); 0: not measured
    std::vector<double> delayed;  // PRTT(n,d,s), may be empty
};

// Medians of one size and what follows from them.
struct SizeRow {
    std::uint64_t bytes = 1;
    double rtt = 0, burst = 0, send = 0, recv = 0;
    double gap = 0;  // (burst - rtt) / (n - 1) = g + (s-1)G
    bool has_prtt = false;  // PRTT(n,d,s) measured
    double send_prtt = 0;   // (delayed - rtt) / (n - 1) - d = o_s + (s-1)O_s
};

struct Line {
    double intercept = 0, slope = 0;  // y = intercept + slope * (s - 1)
};

struct LogGPFit {
    std::vector<SizeRow> rows;
    double L = 0, o = 0, g = 0, G = 0, O = 0;
    Line send_line, recv_line;  // o_s, O_s and o_r, O_r (same rules as o and O)
    std::vector<std::string> notes;  // values clamped to 0, sizes too few
};

double median(std::vector<double> v);  // of a non-empty vector
// Least squares of y over x = s - 1; one point: slope 0.
Line fit_line(const std::vector<std::uint64_t>& bytes, const std::vector<double>& y);

// Throws std::invalid_argument when a size has no samples or burst_n < 2.
LogGPFit fit_loggp(const std::vector<SizeSamples>& sizes);

// The probe's output, one JSON object a line ({"bytes", "burst_n", "rtt",
// "send", "burst", "recv"}); throws std::invalid_argument naming the line.
std::vector<SizeSamples> samples_from_probe(const std::string& text);

// The fit as the simulator's parameters (L, o, g rounded to whole ns).
sim::LogGOPS to_params(const LogGPFit& f);

// The table per size and the fitted parameters, for people.
std::string fit_text(const LogGPFit& f);

}  // namespace jobsentry::loggp
