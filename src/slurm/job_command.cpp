#include "slurm/job_command.h"

#include <iostream>
#include "base/command_line.h"

namespace po = boost::program_options;

namespace jobsentry {

std::optional<int> parse_job_command(const std::vector<std::string>& args, const std::string& name,
                                     po::options_description& desc, JobCommand* out) {
    desc.add_options()("help,h", "print this help")("job-id", po::value(&out->job_id)->required(), "the Slurm job")(
        "report-dir", po::value(&out->report_dir), "where results go (default: the job's working directory)");
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(desc).style(command_line_style()).run(), vm);
        if (vm.count("help")) {
            std::cout << "Usage: jobsentry " << name << " --job-id ID [options]\n\n" << desc;
            return 0;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "jobsentry " << name << ": " << e.what() << " (see jobsentry " << name << " --help)\n";
        return 2;
    }
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
