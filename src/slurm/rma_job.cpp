#include "slurm/rma_job.h"

#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "tools/rmacheck/analysis/report.h"
#include "base/as_user.h"
#include "slurm/job_command.h"
#include "base/proc_files.h"
#include "base/safe_file.h"
#include "slurm/slurm_client.h"

namespace po = boost::program_options;

namespace jobsentry {

int run_rma_job(const std::vector<std::string>& args) {
    JobCommand job;
    po::options_description desc("Options of jobsentry rma-job (started by jobsentry.so at job end)");
    if (auto status = parse_job_command(args, "rma-job", desc, &job)) return *status;
    const Logger& log = job.log;
    const unsigned job_id = job.job_id;
    auto info = load_job(job);
    if (!info) return 1;
    std::string err;
    const std::string base = (job.report_dir.empty() ? info->work_dir : job.report_dir) + "/jobsentry-rma-" + std::to_string(job_id);
    const std::string json_path = base + ".json", text_path = base + ".txt";
    // The traces are the user's files, written by the user's processes: they
    // are parsed by a child that has dropped to the user, never by root.
    err = run_as_user({info->uid, info->gid, info->user}, [&] {
        rmacheck::Analysis analysis = rmacheck::analyse_dir(base);
        std::ostringstream text;
        for (size_t i = 0; i < analysis.findings.size(); ++i)
            text << rmacheck::format_finding(analysis.findings[i], analysis.places[i].first,
                                             analysis.places[i].second) << '\n';
        for (const auto& e : analysis.errors) text << "error: " << e << '\n';
        for (const auto& n : analysis.notes) text << "note: " << n << '\n';
        std::string e = write_file_safely(json_path, rmacheck::to_json(analysis).dump(2) + "\n");
        if (e.empty()) e = write_file_safely(text_path, text.str());
        return e;
    }, 110000);
    std::string clause = "jobsentry rma: ";
    if (!err.empty()) {
        log.error("analysis failed: " + err);
        clause += "analysis failed (see the supervisor log)";
    } else {
        // Read back what the user's child wrote: bounded, and only a count.
        auto text = read_bounded(json_path, 64 << 20);
        nlohmann::json report = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
        if (!report.is_object() || !report.contains("races") || !report["races"].is_number_unsigned()) {
            clause += "no readable report at " + json_path;
        } else {
            const auto races = report["races"].get<uint64_t>();
            const size_t ranks = report.contains("ranks") && report["ranks"].is_array() ? report["ranks"].size() : 0;
            clause += std::to_string(races) + (races == 1 ? " race" : " races") + " in " + std::to_string(ranks) +
                      " rank traces; report " + json_path;
        }
        log.info("findings in " + text_path);
    }
    std::string comment;
    err = slurm_set_comment_clause(job_id, "jobsentry rma:", clause, &comment);
    if (err.empty()) log.info("AdminComment: " + comment);
    else log.error("could not set the AdminComment: " + err);
    return 0;
}

}  // namespace jobsentry
