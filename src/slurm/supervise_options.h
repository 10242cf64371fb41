// Options of `jobsentry supervise`, the per-job supervisor that the SPANK
// plugin starts as root on a job's node (docs/slurm.md). Pure parsing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hang/multinode/node_tree.h"
#include "hang/watch/detection_settings.h"
#include "slurm/plugin/policy.h"
#include "tools/checkpoint/cost_guess.h"

namespace jobsentry {

struct SuperviseOptions : DetectionSettings {
    uint32_t job_id = 0;
    SlurmAction action = SlurmAction::cancel;
    std::string report_dir;   // empty: the job's working directory
    std::string pid_file;     // removed at exit when it names this process
    std::string cgroup_root = "/sys/fs/cgroup";
    int notify_signal = 10;   // SIGUSR1, for action notify
    // Checkpoint coordination (docs/slurm.md): the signal sent to the batch
    // shell at the Young/Daly period, λ = nodes / mtbf.
    int ckpt_signal = 0;      // 0: none
    double mtbf_s = 0;        // per-node MTBF; 0: unknown (no period)
    unsigned nodes = 0;       // 0: the job's node count
    double ckpt_cost_s = ckpt::kCheckpointCostGuessS;  // C guess
    PortRange leader_ports;   // multi-node jobs: where node agents reach us
    unsigned fan_in = NodeTree::kDefaultFanIn;  // multi-node jobs: the tree of agents (node_tree.h)
    SlowAction slow_action = SlowAction::report;  // drain: the slow verdict's nodes are drained too
    bool slow_requeue = false;  // the job consents to slow_action=requeue_exclude (--hang-detect=slow_requeue=yes)
};

struct SuperviseParse {
    SuperviseOptions options;
    bool help = false;
    std::string error;
};

SuperviseParse parse_supervise_options(const std::vector<std::string>& args);
std::string supervise_help();

}  // namespace jobsentry
