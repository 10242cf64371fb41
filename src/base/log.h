// One log line format for every jobsentry process:
//   [STAMP ]jobsentry[COMPONENT[ job ID][ DETAIL]]: [warning: |error: ]MESSAGE
// COMPONENT names the process (watch, supervise, agent, noise-job, rma-job,
// rma-check, trace); "job ID" is there whenever there is a Slurm job, so that
// lines from several jobs' logs can be merged and still be told apart; DETAIL
// says more where it matters (an agent's node). The processes jobsentry.so
// starts write into per-job log files that outlive the job, so their lines
// carry a UTC time stamp; interactive commands' do not. Informational lines
// carry no level word, warnings and errors do.
#pragma once

#include <ostream>
#include <string>

namespace jobsentry {

enum class LogLevel { info, warning, error };

class Logger {
public:
    enum class Stamp { none, utc };
    explicit Logger(std::string component, unsigned job_id = 0, Stamp stamp = Stamp::none);

    void info(const std::string& message) const { write(LogLevel::info, message); }
    void warning(const std::string& message) const { write(LogLevel::warning, message); }
    void error(const std::string& message) const { write(LogLevel::error, message); }
    void write(LogLevel level, const std::string& message) const;

    // More context once it is known (e.g. "node n2").
    void set_detail(const std::string& detail);
    // Where lines go (std::cerr unless set; tests use a string stream).
    void set_stream(std::ostream& out) { out_ = &out; }
    // "jobsentry[COMPONENT job ID DETAIL]: "
    std::string prefix() const;

private:
    std::string component_, detail_;
    unsigned job_id_;
    Stamp stamp_;
    std::ostream* out_;
};

}  // namespace jobsentry
