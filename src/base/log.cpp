#include "base/log.h"

#include <ctime>
#include <iostream>
#include <sstream>

namespace jobsentry {

Logger::Logger(std::string component, unsigned job_id, Stamp stamp)
    : component_(std::move(component)), job_id_(job_id), stamp_(stamp), out_(&std::cerr) {}

void Logger::set_detail(const std::string& detail) { detail_ = detail; }

std::string Logger::prefix() const {
    std::string p = "jobsentry[" + component_;
    if (job_id_) p += " job " + std::to_string(job_id_);
    if (!detail_.empty()) p += " " + detail_;
    return p + "]: ";
}

void Logger::write(LogLevel level, const std::string& message) const {
    // One string, one write: lines of concurrent processes sharing a log file do not interleave.
    std::ostringstream line;
    if (stamp_ == Stamp::utc) {
        char stamp[32];
        const time_t now = time(nullptr);
        std::tm tm{};
        gmtime_r(&now, &tm);
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ ", &tm);
        line << stamp;
    }
    line << prefix() << (level == LogLevel::warning ? "warning: " : level == LogLevel::error ? "error: " : "")
         << message << '\n';
    *out_ << line.str() << std::flush;
}

}  // namespace jobsentry
