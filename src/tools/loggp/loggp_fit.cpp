#include "tools/loggp/loggp_fit.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace jobsentry::loggp {

double median(std::vector<double> v) {
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(mid), v.end());
    double m = v[mid];
    if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + static_cast<long>(mid))) / 2;
    return m;
}

Line fit_line(const std::vector<std::uint64_t>& bytes, const std::vector<double>& y) {
    const double n = static_cast<double>(y.size());
    double sx = 0, sy = 0;
    for (size_t i = 0; i < y.size(); ++i) {
        sx += static_cast<double>(bytes[i] - 1);
        sy += y[i];
    }
    const double mx = sx / n, my = sy / n;
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < y.size(); ++i) {
        const double dx = static_cast<double>(bytes[i] - 1) - mx;
        sxx += dx * dx;
        sxy += dx * (y[i] - my);
    }
    Line l;
    l.slope = sxx > 0 ? sxy / sxx : 0;
    l.intercept = my - l.slope * mx;
    return l;
}

namespace {

// A fitted parameter below 0 (noise, or a network whose cost the others
// already hold) is 0 in the model; the note says so.
double clamped(double v, const char* name, std::vector<std::string>& notes) {
    if (v >= 0) return v;
    std::ostringstream n;
    n << name << " fitted as " << std::setprecision(4) << v << ", taken as 0";
    notes.push_back(n.str());
    return 0;
}

}  // namespace

LogGPFit fit_loggp(const std::vector<SizeSamples>& sizes) {
    if (sizes.empty()) throw std::invalid_argument("no message sizes measured");
    LogGPFit f;
    std::vector<std::uint64_t> bytes;
    std::vector<double> half_rtt, gap, send, recv, overhead;
    std::vector<const SizeSamples*> by_size;
    for (const SizeSamples& s : sizes) by_size.push_back(&s);
    std::stable_sort(by_size.begin(), by_size.end(), [](auto a, auto b) { return a->bytes < b->bytes; });
    for (const SizeSamples* sp : by_size) {
        const SizeSamples& s = *sp;
        if (s.bytes < 1 || s.burst_n < 2 || s.rtt.empty() || s.burst.empty() || s.send.empty() || s.recv.empty())
            throw std::invalid_argument("size " + std::to_string(s.bytes) +
                                        ": needs bytes >= 1, burst_n >= 2 and samples of rtt, burst, send and recv");
        SizeRow r;
        r.bytes = s.bytes;
        r.rtt = median(s.rtt);
        r.burst = median(s.burst);
        r.send = median(s.send);
        r.recv = median(s.recv);
        r.gap = (r.burst - r.rtt) / (s.burst_n - 1);
        r.has_prtt = !s.delayed.empty();
        if (r.has_prtt) r.send_prtt = (median(s.delayed) - r.rtt) / (s.burst_n - 1) - s.delay;
        f.rows.push_back(r);
        bytes.push_back(r.bytes);
        half_rtt.push_back(r.rtt / 2);
        gap.push_back(r.gap);
        send.push_back(r.send);
        recv.push_back(r.recv);
        overhead.push_back((r.send + r.recv) / 2);
    }
    if (sizes.size() < 2) f.notes.push_back("one message size: G and O are 0 (give --bytes two sizes or more)");
    // The per-byte slopes from the larger half of the sizes (at least two):
    // MPIs change protocol with the size (Open MPI's shared memory copies
    // twice up to 4 KiB, once above), so one line through all sizes would
    // bend the small sizes' constants. The per-message constants are those
    // of the smallest size, less its bytes.
    const size_t first = std::min(f.rows.size() / 2, f.rows.size() > 1 ? f.rows.size() - 2 : 0);
    auto upper = [first](const std::vector<double>& v) {
        return std::vector<double>(v.begin() + static_cast<long>(first), v.end());
    };
    const std::vector<std::uint64_t> large(bytes.begin() + static_cast<long>(first), bytes.end());
    f.send_line = fit_line(large, upper(send));
    f.recv_line = fit_line(large, upper(recv));
    const double x0 = static_cast<double>(bytes[0] - 1);
    f.send_line.intercept = send[0] - x0 * f.send_line.slope;
    f.recv_line.intercept = recv[0] - x0 * f.recv_line.slope;
    f.O = clamped(fit_line(large, upper(overhead)).slope, "O", f.notes);
    f.G = clamped(fit_line(large, upper(gap)).slope, "G", f.notes);
    f.o = clamped(overhead[0] - x0 * f.O, "o", f.notes);
    f.g = clamped(gap[0] - x0 * f.G, "g", f.notes);
    f.L = clamped(half_rtt[0] - 2 * f.o - x0 * std::max(f.O, f.G), "L", f.notes);
    return f;
}

std::vector<SizeSamples> samples_from_probe(const std::string& text) {
    std::vector<SizeSamples> out;
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            const auto j = nlohmann::json::parse(line);
            SizeSamples s;
            s.bytes = j.at("bytes").get<std::uint64_t>();
            s.burst_n = j.at("burst_n").get<int>();
            s.rtt = j.at("rtt").get<std::vector<double>>();
            s.send = j.at("send").get<std::vector<double>>();
            s.burst = j.at("burst").get<std::vector<double>>();
            s.recv = j.at("recv").get<std::vector<double>>();
            s.delay = j.value("delay_ns", 0.0);
            s.delayed = j.value("delayed", std::vector<double>{});
            out.push_back(std::move(s));
        } catch (const nlohmann::json::exception& e) {
            throw std::invalid_argument("probe output line " + std::to_string(n) + ": " + e.what() +
                                        "; expected {\"bytes\", \"burst_n\", \"rtt\", \"send\", \"burst\", \"recv\"}");
        }
    }
    if (out.empty()) throw std::invalid_argument("the probe printed no measurements");
    return out;
}

sim::LogGOPS to_params(const LogGPFit& f) {
    sim::LogGOPS p;
    p.L = static_cast<sim::Time>(std::llround(f.L));
    p.o = static_cast<sim::Time>(std::llround(f.o));
    p.g = static_cast<sim::Time>(std::llround(f.g));
    p.G = f.G;
    p.O = f.O;
    return p;
}

std::string fit_text(const LogGPFit& f) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(1);
    out << "   bytes   rtt/2_ns    gap_ns  send_ns  recv_ns  send_prtt_ns   (medians; gap = g + (s-1)G from the burst;\n"
           "                                                             send_prtt: o_s + (s-1)O_s from PRTT(n,d,s))\n";
    for (const SizeRow& r : f.rows) {
        out << std::setw(8) << r.bytes << std::setw(11) << r.rtt / 2 << std::setw(10) << r.gap << std::setw(9) << r.send
            << std::setw(9) << r.recv;
        if (r.has_prtt) out << std::setw(14) << r.send_prtt;
        else out << std::setw(14) << "-";
        out << '\n';
    }
    out << std::setprecision(1) << "L " << f.L << " ns   o " << f.o << " ns   g " << f.g << " ns   "
        << std::setprecision(4) << "G " << f.G << " ns/B   O " << f.O << " ns/B\n";
    out << std::setprecision(1) << "(send: o_s " << f.send_line.intercept << " ns, O_s " << std::setprecision(4)
        << f.send_line.slope << " ns/B; receive: o_r " << std::setprecision(1) << f.recv_line.intercept
        << " ns, O_r " << std::setprecision(4) << f.recv_line.slope << " ns/B)\n";
    for (const auto& n : f.notes) out << "note: " << n << '\n';
    return out.str();
}

}  // namespace jobsentry::loggp
