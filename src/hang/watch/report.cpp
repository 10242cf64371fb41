#include "hang/watch/report.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <memory>
#include <sstream>

#include "base/safe_file.h"
#include "hang/watch/report_slow.h"

namespace jobsentry {
namespace {

std::string demangle(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) return name;
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                   &std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

std::string base_name(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string iso_time(double unix_seconds) {
    if (unix_seconds <= 0) return "-";
    time_t t = static_cast<time_t>(unix_seconds);
    char buf[64];
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    return buf;
}

constexpr CostStep kAllSteps[] = {CostStep::stop_copy, CostStep::unwind,      CostStep::symbolize,
                                  CostStep::classify,  CostStep::model,       CostStep::slow,
                                  CostStep::sample,    CostStep::verification};

nlohmann::json cost_json(const Report& r) {
    nlohmann::json steps = nlohmann::json::object();
    for (CostStep step : kAllSteps) {
        const StepTally& t = r.cpu_cost[step];
        steps[to_string(step)] = {{"count", t.count},
                                  {"total_ms", t.total_s * 1e3},
                                  {"mean_us", t.mean_s() * 1e6},
                                  {"max_us", t.max_s * 1e6}};
    }
    nlohmann::json out = {{"supervisor_cpu_s", r.supervisor_cpu_s},
                          {"job_cpu_s", r.job_cpu_s},
                          {"share_percent", cpu_share_percent(r.supervisor_cpu_s, r.job_cpu_s)},
                          {"steps", steps},
                          {"sampler_steps_every", r.cpu_cost.sampler_steps_every}};
    if (r.warm_at > 0)  // from the 20th round on: without the start-up (symbol tables of each binary)
        out["steady_share_percent"] =
            cpu_share_percent(r.supervisor_cpu_s - r.warm_cpu_s, r.job_cpu_s - r.warm_job_cpu_s);
    out["budget"] = {{"percent", r.budget_percent},
                     {"stretch_max", r.budget_stretch_max},
                     {"stretch_at_end", r.budget_stretch_at_end},
                     {"seconds_slowed", r.budget_seconds_slowed},
                     {"full_node", r.budget_full_node}};
    return out;
}

std::string cost_text(const Report& r) {
    std::ostringstream out;
    out << "\nWatching cost: " << cpu_share_summary(r.supervisor_cpu_s, r.job_cpu_s) << '\n';
    if (r.warm_at > 0)
        out << "  from the 20th round on: " << std::fixed << std::setprecision(3)
            << cpu_share_percent(r.supervisor_cpu_s - r.warm_cpu_s, r.job_cpu_s - r.warm_job_cpu_s) << " %\n";
    if (r.budget_stretch_max > 1)
        out << "  sampling slowed up to " << std::setprecision(2) << r.budget_stretch_max << "x for "
            << std::setprecision(0) << r.budget_seconds_slowed << " s: the job kept its CPUs busy, and the budget is "
            << std::setprecision(3) << r.budget_percent << " % of its CPU (--cpu-budget)\n";
    out
        << "  step            count     total ms     mean us      max us\n";
    for (CostStep step : kAllSteps) {
        const StepTally& t = r.cpu_cost[step];
        out << "  " << std::left << std::setw(14) << to_string(step) << std::right << std::setw(7) << t.count
            << std::fixed << std::setprecision(1) << std::setw(13) << t.total_s * 1e3 << std::setw(12)
            << t.mean_s() * 1e6 << std::setw(12) << t.max_s * 1e6 << '\n';
    }
    return out.str();
}

}  // namespace

StackTree stack_tree_of(const Report& report) {
    StackTree tree;
    std::map<int, const std::vector<Frame>*> frames_of;
    for (const auto& r : report.ranks) frames_of[r.rank] = &r.frames;
    for (const auto& r : report.ranks) {
        const std::vector<Frame>* frames = &r.frames;
        if (frames->empty() && r.stack_like_rank >= 0 && frames_of.count(r.stack_like_rank))
            frames = frames_of[r.stack_like_rank];
        if (frames->empty()) continue;
        std::vector<std::string> labels;
        for (const auto& f : *frames) labels.push_back(frame_label(f));
        tree.add(r.rank, labels);
    }
    return tree;
}

std::string frame_label(const Frame& frame) {
    if (!frame.function.empty()) return demangle(frame.function);
    return "?? (" + (frame.module.empty() ? std::string("unmapped") : base_name(frame.module)) + ")";
}

nlohmann::json report_json(const Report& r) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& rank : r.ranks) {
        nlohmann::json frames = nlohmann::json::array();
        for (const auto& f : rank.frames) {
            std::ostringstream pc;
            pc << "0x" << std::hex << f.pc;
            frames.push_back({{"pc", pc.str()}, {"function", demangle(f.function)}, {"module", f.module}, {"mpi", f.mpi}});
        }
        nlohmann::json entry = {{"rank", rank.rank},         {"pid", rank.pid},
                                {"activity", rank.activity}, {"state", std::string(1, rank.state)},
                                {"cpu_seconds", rank.cpu_seconds}, {"frames", frames}};
        if (!rank.sample_error.empty()) entry["sample_error"] = rank.sample_error;
        if (!rank.node.empty()) entry["node"] = rank.node;
        if (rank.stack_like_rank >= 0) entry["stack_like_rank"] = rank.stack_like_rank;
        ranks.push_back(entry);
    }
    nlohmann::json out = {
        {"verdict", r.verdict},
        {"reason", r.reason},
        {"suspect_ranks", r.suspect_ranks},
        {"detected_at", r.detected_at > 0 ? nlohmann::json(r.detected_at) : nlohmann::json(nullptr)},
        {"started_at", r.started_at},
        {"finished_at", r.finished_at},
        {"samples", r.samples},
        {"interval_ms", r.interval_ms},
        {"alpha", r.alpha},
        {"monitored_ranks", r.monitored_ranks},
        {"total_ranks", r.total_ranks},
        {"command", r.command},
        {"command_status", r.command_status ? nlohmann::json(*r.command_status) : nlohmann::json(nullptr)},
        {"evidence", r.evidence},
        {"slow", slow_json(r.slow)},
        {"supervisor_cost", cost_json(r)},
        {"ranks", ranks},
        {"stack_tree", stack_tree_of(r).to_json()},
    };
    if (!r.monitoring_problem.empty()) out["monitoring_problem"] = r.monitoring_problem;
    if (r.suspicious_since > 0) out["suspicious_since"] = r.suspicious_since;
    if (r.progress_last_seen > 0) out["progress_last_seen"] = r.progress_last_seen;
    if (r.slurm_job_id) out["slurm_job_id"] = r.slurm_job_id;
    if (!r.action_taken.empty()) out["action_taken"] = r.action_taken;
    if (!r.nodes.is_null()) out["nodes"] = r.nodes;
    if (!r.stack_tree_dot.empty()) out["stack_tree_dot"] = r.stack_tree_dot;
    if (!r.stack_tree_svg.empty()) out["stack_tree_svg"] = r.stack_tree_svg;
    if (!r.stack_tree_graph_note.empty()) out["stack_tree_graph_note"] = r.stack_tree_graph_note;
    return out;
}

std::string report_text(const Report& r) {
    std::ostringstream out;
    out << "jobsentry report\n"
        << "  verdict:      " << r.verdict << '\n';
    if (!r.reason.empty()) out << "  reason:       " << r.reason << '\n';
    if (!r.suspect_ranks.empty()) {
        out << "  suspects:     ";
        for (size_t i = 0; i < r.suspect_ranks.size(); ++i) out << (i ? ", " : "") << "rank " << r.suspect_ranks[i];
        out << '\n';
    }
    out << "  detected at:  " << iso_time(r.detected_at) << '\n';
    if (!r.action_taken.empty()) out << "  action:       " << r.action_taken << '\n';
    out << slow_text(r.slow);
    out
        << "  watched:      " << iso_time(r.started_at) << " to " << iso_time(r.finished_at) << '\n'
        << "  samples:      " << r.samples << " rounds of " << r.monitored_ranks << " of " << r.total_ranks
        << " ranks, I = " << r.interval_ms << " ms, alpha = " << r.alpha << '\n';
    if (!r.monitoring_problem.empty()) out << "  monitoring:   " << r.monitoring_problem << '\n';
    if (r.slurm_job_id) out << "  slurm job:    " << r.slurm_job_id << '\n';
    if (r.nodes.is_array())
        for (const auto& n : r.nodes)
            out << "  node agent:   " << n.value("node", "?") << ": " << n.value("agent", "?")
                << (n.contains("lost_because") ? " (" + n["lost_because"].get<std::string>() + ")" : "") << '\n';
    if (!r.command.empty()) {
        out << "  command:     ";
        for (const auto& word : r.command) out << ' ' << word;
        out << '\n';
    }
    if (r.command_status) out << "  exit status:  " << *r.command_status << '\n';
    out << cost_text(r);
    out << "\nMerged stacks (outermost first; [ranks] that share each frame):\n" << stack_tree_of(r).to_text();
    if (!r.stack_tree_dot.empty()) out << "  as a graph: " << r.stack_tree_dot << '\n';
    if (!r.stack_tree_svg.empty()) out << "  drawn:      " << r.stack_tree_svg << '\n';
    if (!r.stack_tree_graph_note.empty()) out << "  graph note: " << r.stack_tree_graph_note << '\n';
    out << "\nRanks:\n";
    for (const auto& rank : r.ranks) {
        out << "  rank " << rank.rank << " (" << (rank.node.empty() ? "" : "node " + rank.node + ", ") << "pid "
            << rank.pid << ", state " << rank.state << ", "
            << std::fixed << std::setprecision(2) << rank.cpu_seconds << " s CPU): " << rank.activity;
        if (!rank.sample_error.empty()) out << " — " << rank.sample_error;
        out << '\n';
        if (rank.frames.empty() && rank.stack_like_rank >= 0)
            out << "      the same call chain as rank " << rank.stack_like_rank << '\n';
        for (const auto& f : rank.frames) {
            out << "      0x" << std::hex << f.pc << std::dec << "  " << frame_label(f);
            if (!f.module.empty()) out << "  [" << base_name(f.module) << ']';
            out << '\n';
        }
    }
    return out.str();
}

std::string sibling_path(const std::string& json_path, const std::string& suffix) {
    const std::string json = ".json";
    if (json_path.size() > json.size() && json_path.compare(json_path.size() - json.size(), json.size(), json) == 0)
        return json_path.substr(0, json_path.size() - json.size()) + suffix;
    return json_path + suffix;
}

std::string text_path_for(const std::string& json_path) { return sibling_path(json_path, ".txt"); }

std::string write_report(const Report& report, const std::string& json_path) {
    std::string err = write_file_safely(json_path, report_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    if (!err.empty()) return err;
    return write_file_safely(text_path_for(json_path), report_text(report));
}

}  // namespace jobsentry
