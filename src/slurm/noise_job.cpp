#include "slurm/noise_job.h"

#include <dirent.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "slurm/annotation.h"
#include "base/as_user.h"
#include "slurm/job_command.h"
#include "slurm/plugin/site_spec.h"
#include "tools/noise/noise_health.h"
#include "tools/noise/noise_report.h"
#include "tools/noise/probe.h"
#include "base/proc_files.h"
#include "base/safe_file.h"
#include "base/text.h"
#include "slurm/slurm_client.h"

namespace po = boost::program_options;

namespace jobsentry {
namespace {

std::string hostname() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "node";
    std::string name = buf;
    return name.substr(0, name.find('.'));
}

std::string duration_text(double ns) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(1);
    if (ns >= 1e6) out << ns / 1e6 << "ms";
    else out << ns / 1e3 << "us";
    return out.str();
}

// The job's PUs on this node as a CPU list ("0-3,8"), from its cpuset cgroup
// (v1: cpuset/slurm*/uid_U/job_N; v2: the job's scope), or "" when the site
// does not confine jobs to cpusets (then every PU we may run on is probed).
std::string job_cpuset(const std::string& root, unsigned uid, unsigned job_id) {
    const std::string tail = "/uid_" + std::to_string(uid) + "/job_" + std::to_string(job_id) + "/cpuset.cpus";
    std::vector<std::string> candidates;
    if (DIR* d = opendir((root + "/cpuset").c_str())) {
        while (dirent* e = readdir(d))
            if (std::strncmp(e->d_name, "slurm", 5) == 0) candidates.push_back(root + "/cpuset/" + e->d_name + tail);
        closedir(d);
    }
    candidates.push_back(root + "/system.slice/slurmstepd.scope/job_" + std::to_string(job_id) + "/cpuset.cpus.effective");
    for (const std::string& path : candidates) {
        auto text = read_bounded(path, 4096);
        if (!text) continue;
        std::string list = *text;
        while (!list.empty() && (list.back() == '\n' || list.back() == ' ')) list.pop_back();
        if (!list.empty()) return list;
    }
    return "";
}

// "jobsentry noise NODE: worst PU 3 0.42%, max detour 1.2ms (2 PUs, 2.0s)".
std::string noise_clause(const std::string& node, const ProbeResult& result) {
    const PuResult* worst = noisiest_pu(result);
    uint64_t max_detour = 0;
    int measured = 0;
    for (const PuResult& pu : result.pus)
        if (pu.error.empty()) {
            ++measured;
            max_detour = std::max(max_detour, pu.stats.max_ns);
        }
    std::ostringstream out;
    out << "jobsentry noise " << node << ": ";
    if (!worst) return out.str() + "no PU could be measured";
    out << "worst PU " << worst->cpu << " " << std::fixed << std::setprecision(2) << worst->stats.noise_percent
        << "%, max detour " << duration_text(static_cast<double>(max_detour)) << " (" << measured << " PU"
        << (measured == 1 ? "" : "s") << ", " << std::setprecision(1) << result.duration_ns / 1e9 << "s)";
    return out.str();
}

// This node against the site's baseline (tools/noise/noise_health.h). An
// unreadable baseline is said in the clause and the log; the job goes on.
struct NodeHealthCheck {
    bool noisy = false;
    std::string clause_tail, error;
    nlohmann::json json;
};
NodeHealthCheck check_node_health(const ProbeResult& result, const std::string& baseline_path, double factor) {
    NodeHealthCheck out;
    const auto text = read_bounded(baseline_path, kMaxBaselineBytes + 1);
    std::optional<NoiseBaseline> baseline;
    if (!text) out.error = baseline_path + ": cannot be read";
    else if (!(baseline = parse_noise_baseline(*text, &out.error))) out.error = baseline_path + ": " + out.error;
    if (!baseline) {
        out.clause_tail = "; site baseline unreadable";
        out.json = {{"baseline", baseline_path}, {"error", out.error}};
        return out;
    }
    if (const std::string other = baseline_mismatch(*baseline, result); !other.empty()) {
        out.error = baseline_path + ": from other hardware (" + other + "): this node is not judged against it";
        out.clause_tail = "; site baseline from other hardware";
        out.json = {{"baseline", baseline_path}, {"error", out.error}};
        return out;
    }
    const NoiseHealth h = judge_node_noise(result, *baseline, factor);
    out.noisy = h.noisy;
    out.clause_tail = noise_health_text(h);
    out.json = {{"baseline", baseline_path}, {"baseline_percent", h.baseline_percent}, {"factor_limit", factor},
                {"noisy", h.noisy}, {"worst_cpu", h.worst_cpu}, {"node_percent", h.node_percent}};
    if (std::isfinite(h.factor)) out.json["factor"] = h.factor;
    return out;
}

// slow_action=drain: the node takes no new jobs until an administrator looks;
// this job runs on (its tasks start once the probe is done).
void drain_this_node(const Logger& log, const SlurmJobInfo& info, unsigned job_id, const std::string& clause) {
    const char* slurmd_name = std::getenv("SLURMD_NODENAME");
    const std::string node = this_slurm_node(info.nodes, slurmd_name ? slurmd_name : "", hostname());
    if (node.empty()) {
        log.error("NOISY node not drained: which of the job's nodes this is is not known");
        return;
    }
    const std::string reason = noisy_drain_reason(job_id, clause);
    const std::string err = slurm_drain_node(node, reason);
    log.info(err.empty() ? "node " + node + " set DRAIN: " + reason : "could not drain node " + node + ": " + err);
}

}  // namespace

int run_noise_job(const std::vector<std::string>& args) {
    JobCommand job;
    int duration_ms = kNoiseDefaultMs;
    std::string cpus_arg, cgroup_root = "/sys/fs/cgroup", baseline_path;
    double noise_factor = kNoiseFactorDefault;
    bool drain_noisy = false;
    po::options_description desc("Options of jobsentry noise-job (started by jobsentry.so at job start)");
    const std::string range = std::to_string(kNoiseMinMs) + ".." + std::to_string(kNoiseMaxMs);
    desc.add_options()("duration-ms", po::value(&duration_ms)->default_value(duration_ms), ("how long to probe, " + range).c_str())(
        "cpus", po::value(&cpus_arg), "PUs to probe (default: the job's cpuset on this node, else all allowed)")(
        "cgroup-root", po::value(&cgroup_root)->default_value(cgroup_root), "where cgroups are mounted")(
        "baseline", po::value(&baseline_path), "a healthy node's `jobsentry noise --json` (site's noise_baseline)")(
        "noise-factor", po::value(&noise_factor)->default_value(noise_factor), "that many times the baseline is NOISY")(
        "drain-noisy", po::bool_switch(&drain_noisy), "set this node DRAIN when it is NOISY (site's slow_action=drain)");
    if (auto status = parse_job_command(args, "noise-job", desc, &job)) return *status;
    if (duration_ms < kNoiseMinMs || duration_ms > kNoiseMaxMs) {
        std::cerr << "jobsentry noise-job: --duration-ms " << duration_ms << ": accepted values are " << range << "\n";
        return 2;
    }
    if (!(noise_factor >= kNoiseFactorMin && noise_factor <= kNoiseFactorMax)) {
        std::cerr << "jobsentry noise-job: --noise-factor " << noise_factor << ": accepted values are numbers from "
                  << format_number(kNoiseFactorMin) << " to " << format_number(kNoiseFactorMax) << "\n";
        return 2;
    }
    const Logger& log = job.log;
    const unsigned job_id = job.job_id;
    auto info = load_job(job);
    if (!info) return 1;
    std::string err;
    if (cpus_arg.empty()) cpus_arg = job_cpuset(cgroup_root, info->uid, job_id);
    ProbeSettings settings;
    err = check_noise_cpus(cpus_arg.empty() ? "all" : cpus_arg, &settings.cpus);
    if (!err.empty() && !cpus_arg.empty()) err = check_noise_cpus("all", &settings.cpus);  // cpuset unusable here
    if (!err.empty()) {
        log.error("no PU to probe: " + err);
        return 1;
    }
    settings.duration_ns = static_cast<uint64_t>(duration_ms) * 1000000ull;
    ProbeResult result = run_noise_probe(settings);
    std::cout << noise_table(result) << std::flush;

    const std::string node = hostname();
    nlohmann::json json = noise_json(result);
    json["job_id"] = job_id;
    json["node"] = node;
    std::string clause = noise_clause(node, result);
    if (!baseline_path.empty()) {
        const NodeHealthCheck health = check_node_health(result, baseline_path, noise_factor);
        json["health"] = health.json;
        clause += health.clause_tail;
        if (!health.error.empty()) log.error("node health not judged: " + health.error);
        else if (health.noisy) log.warning("node " + node + " is NOISY" + health.clause_tail);
        // The reason says the figures; "jobsentry noise NODE: " is the comment's key, not news there.
        if (health.noisy && drain_noisy) drain_this_node(log, *info, job_id, clause.substr(clause.find(": ") + 2));
    }
    const std::string dir = job.report_dir.empty() ? info->work_dir : job.report_dir;
    const std::string base = dir + "/jobsentry-noise-" + std::to_string(job_id) + "." + node;
    const UserIdentity user{info->uid, info->gid, info->user};
    // The noisiest PU's detours, for the user's own prediction of what they cost the application:
    // jobsentry simulate --goal app.goal --noise-trace BASE.tsv (docs/noise.md).
    std::ostringstream trace;
    if (const PuResult* worst = noisiest_pu(result)) {
        write_noise_trace(trace, *worst);
        json["noise_trace"] = {{"file", base + ".tsv"}, {"cpu", worst->cpu}};
    }
    for (const auto& [path, text] : {std::pair<std::string, std::string>{base + ".json", json.dump(2) + "\n"},
                                     {base + ".tsv", trace.str()}}) {
        if (text.empty()) continue;
        err = dir.empty() ? "no directory for the result"
                          : run_as_user(user, [&, &path = path, &text = text] { return write_file_safely(path, text); });
        if (err.empty()) log.info("result written to " + path);
        else log.error("could not write the result: " + err);
    }

    // Read-modify-write of the job's comment: the hang supervisor keeps this
    // clause (annotation.h). Nodes of a multi-node job each add their own.
    std::string comment;
    err = slurm_set_comment_clause(job_id, "jobsentry noise " + node + ":", clause, &comment);
    if (err.empty()) log.info("AdminComment: " + comment);
    else log.error("could not set the AdminComment: " + err);
    return 0;
}

}  // namespace jobsentry
