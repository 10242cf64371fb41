#include "slurm/job_command.h"

#include <iostream>
#include <sstream>
#include "base/command_line.h"

namespace po = boost::program_options;

namespace jobsentry {

std::optional<int> parse_job_command(const std::vector<std::string>& args, const std::string& name,
                                     po::options_description& desc, JobCommand* out) {
    desc.add_options()("help,h", "print this help")("job-id", po::value(&out->job_id)->required(), "the Slurm job")(
        "report-dir", po::value(&out->report_dir), "where results go (default: the job's working directory)");
    bool help = false;
    const std::string error = parse_with(desc, args, &help, "jobsentry " + name + " --help");
    const auto help_text = [&] {
        std::ostringstream text;
        text << "Usage: jobsentry " << name << " --job-id ID [options]\n\n" << desc;
        return text.str();
    };
    if (auto status = answered(help, error, help_text, "jobsentry " + name)) return status;
    if (out->job_id == 0 || (!out->report_dir.empty() && out->report_dir[0] != '/')) {
        std::cerr << "jobsentry " << name << ": accepted values are --job-id > 0, --report-dir an absolute path\n";
        return 2;
    }
    out->log = Logger(name, out->job_id, Logger::Stamp::utc);
    return std::nullopt;
}

std::optional<SlurmJobInfo> load_job(const JobCommand& command) {
    slurm_client_init();
    std::string err;
    auto info = slurm_job_info(command.job_id, &err);
    if (!info) command.log.error("cannot load the job: " + err);
    return info;
}

}  // namespace jobsentry
