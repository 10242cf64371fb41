// jobsentry.so: the SPANK entry points, thin, split by context.
//   every context   slurm_spank_init: read the site policy, register --hang-detect
//                   and --noise-probe, --checkpoint
//   local/allocator the option callbacks refuse a bad value at submission
//                   and --rma-check
//   remote          slurm_spank_init_post_opt: the job's noise probe (once per
//                   node, before the tasks), then start the job's supervisor
//                   (also for --checkpoint alone, from the batch step) on
//                   the step's first node; the extern step starts a node
//                   agent on every other node (docs/multi-node.md)
//                   slurm_spank_user_init: JOBSENTRY_MTBF for jobsentry_ckpt.h
//                   slurm_spank_task_init (as the user): --rma-check's preload
//                   module and trace directory in each task's environment
//                   slurm_spank_exit: stop it (or the node's agent) when the job ends
// A bad plugstack.conf line is logged and disables the plugin; nothing here
// ever fails a job because monitoring could not start, and nothing throws
// into Slurm. See docs/slurm.md.
// spank.h declares the entry points outside its extern "C" block.
extern "C" {
#include <slurm/slurm.h>
#include <slurm/spank.h>
}

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/version.h"
#include "slurm/plugin/checkpoint_option.h"
#include "slurm/plugin/noise_option.h"
#include "slurm/plugin/policy.h"
#include "slurm/plugin/rma_option.h"
#include "slurm/plugin/supervisor_process.h"

// Only the symbols Slurm looks up are visible; the rest (and the static
// libstdc++) stays inside the plugin.
// SPANK_PLUGIN() would give them internal linkage in C++ (const at
// namespace scope), so they are spelled out as extern.
#pragma GCC visibility push(default)
extern "C" {
extern const char plugin_name[] = "jobsentry";
extern const char plugin_type[] = "spank";
extern const unsigned int plugin_version = SLURM_VERSION_NUMBER;
extern const unsigned int spank_plugin_version = 1;
}
#pragma GCC visibility pop
#define JOBSENTRY_EXPORT extern "C" __attribute__((visibility("default")))

#ifndef JOBSENTRY_DEFAULT_SUPERVISOR
#define JOBSENTRY_DEFAULT_SUPERVISOR "/usr/local/bin/jobsentry"
#endif

namespace {

using namespace jobsentry;

// How long the end of the batch or extern step waits for the supervisor to
// write the job's end annotation (it needs one RPC; a bound, not a habit).
constexpr int kStopWaitMs = 3000;

bool g_disabled = false;
SitePolicy g_policy;

// A user option as this process saw it: its callback ran (submission, batch
// and job steps) with this value.
struct SeenOption {
    bool seen = false;
    std::string value;
};
SeenOption g_hang_detect, g_noise_probe, g_rma_check;
std::string g_hang_usage, g_noise_usage, g_rma_usage;

// How long the end of a job waits for the analysis of its RMA traces.
constexpr int kRmaAnalysisMs = 120000;

// An option's callback: refuses a bad value (sbatch/srun/salloc then submit
// nothing), remembers a good one for this process's later entry points.
template <typename Check>
int remember_option(const char* value, SeenOption* seen, Check error_of) {
    try {
        if (g_disabled) return 0;
        const std::string error = error_of(value);
        if (!error.empty()) {
            slurm_error("%s", error.c_str());
            return -1;
        }
        *seen = {true, value ? value : ""};
        return 0;
    } catch (...) {
        return -1;
    }
}

int on_hang_detect(int, const char* value, int) {
    return remember_option(value, &g_hang_detect, [](const char* v) { return parse_hang_detect(v, g_policy).error; });
}
int on_noise_probe(int, const char* value, int) {
    return remember_option(value, &g_noise_probe, [](const char* v) { return parse_noise_probe(v, g_policy).error; });
}
int on_rma_check(int, const char* value, int) {
    return remember_option(value, &g_rma_check, [](const char* v) { return parse_rma_check(v).error; });
}

char g_hang_name[] = "hang-detect";
char g_hang_arginfo[] = "[KEY=VAL,...]";
char g_noise_name[] = "noise-probe";
char g_noise_arginfo[] = "[DURATION|off]";
char g_rma_name[] = "rma-check";
char g_rma_arginfo[] = "[all|precise|off]";

// The value of an option as seen by a remote step: the callback (batch and
// job steps run it) or, failing that, the environment Slurm passes it in.
std::optional<std::string> option_in_step(spank_t sp, const SeenOption& seen, const std::string& name) {
    if (seen.seen) return seen.value;
    std::string underscored = name;
    for (char& c : underscored)
        if (c == '-') c = '_';
    char buf[1024] = {};
    for (const std::string& n : {underscored, name}) {
        const std::string var = "SLURM_SPANK__SLURM_SPANK_OPTION_jobsentry_" + n;
        if (spank_getenv(sp, var.c_str(), buf, sizeof buf) == ESPANK_SUCCESS) return std::string(buf);
    }
    return std::nullopt;
}

// --checkpoint (slurm/plugin/checkpoint_option.h): refused at submission when bad.
SeenOption g_checkpoint;
std::string g_ckpt_usage;
char g_ckpt_name[] = "checkpoint";
char g_ckpt_arginfo[] = "signal:SIG[,cost=DURATION]";

int on_checkpoint(int, const char* value, int) {
    return remember_option(value, &g_checkpoint,
                           [](const char* v) { return parse_checkpoint_option(v, g_policy).error; });
}

// The checkpoint signal the batch step asks for; none in other steps (only
// the batch shell is signalled, by the supervisor the batch step starts).
CheckpointRequest checkpoint_in_step(spank_t sp, uint32_t job_id, uint32_t step_id) {
    if (step_id != SLURM_BATCH_SCRIPT) return {};
    auto value = option_in_step(sp, g_checkpoint, g_ckpt_name);
    if (!value) return {};
    CheckpointOptionParse parsed = parse_checkpoint_option(value->c_str(), g_policy);
    if (!parsed.error.empty()) slurm_error("jobsentry: job %u: no checkpoint signal: %s", job_id, parsed.error.c_str());
    return parsed.request;
}

// The job's OS-noise probe, before this step's tasks start; once per job on
// this node, bounded in time. Its failure is logged, never the job's.
void probe_noise_for_step(spank_t sp, uint32_t job_id) {
    int duration_ms = noise_without_option(g_policy);
    if (auto value = option_in_step(sp, g_noise_probe, g_noise_name)) {
        NoiseOptionParse parsed = parse_noise_probe(value->c_str(), g_policy);
        if (!parsed.error.empty()) {
            slurm_error("jobsentry: job %u: no noise probe: %s", job_id, parsed.error.c_str());
            return;
        }
        duration_ms = parsed.duration_ms;
    }
    if (duration_ms <= 0) return;
    std::string err = run_noise_probe_once(g_policy, job_id, noise_probe_argv(g_policy, job_id, duration_ms),
                                           noise_probe_timeout_ms(duration_ms));
    if (!err.empty()) slurm_error("jobsentry: job %u: noise probe: %s", job_id, err.c_str());
}

spank_option option_entry(char* name, char* arginfo, std::string& usage, int has_arg, spank_opt_cb_f cb) {
    spank_option option{};
    option.name = name;
    option.arginfo = arginfo;
    option.usage = usage.data();
    option.has_arg = has_arg;
    option.cb = cb;
    return option;
}

// The node's place in the step (S_JOB_NODEID): the job's for the extern step.
unsigned node_index(spank_t sp) {
    uint32_t node = 0;
    if (spank_get_item(sp, S_JOB_NODEID, &node) != ESPANK_SUCCESS) return 0;
    return node;
}

int start_for_step(spank_t sp) {
    uint32_t job_id = 0, step_id = 0;
    if (spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_STEPID, &step_id) != ESPANK_SUCCESS)
        return 0;
    // The extern step never sees the user's option (Slurm 22.05), so it
    // cannot tell an opt-out from no option: the batch step and job steps
    // decide. It spans the whole job, so its node id is the job's: every node
    // but the first gets a node agent, which serves the leader if the job has
    // one (docs/multi-node.md).
    if (step_id == SLURM_EXTERN_CONT) {
        const unsigned node = node_index(sp);
        if (node > 0 && !g_policy.supervisor.empty()) {
            std::string err = start_supervisor(g_policy, job_id, node, agent_argv(g_policy, job_id, node));
            if (!err.empty()) slurm_error("jobsentry: job %u: no node agent: %s", job_id, err.c_str());
        }
        return 0;
    }
    probe_noise_for_step(sp, job_id);
    if (auto value = option_in_step(sp, g_rma_check, g_rma_name); value && parse_rma_check(value->c_str()).mode != RmaMode::off) {
        std::string err = mark_rma_job(g_policy, job_id);
        if (!err.empty()) slurm_error("jobsentry: job %u: --rma-check: %s", job_id, err.c_str());
    }
    HangDetectSettings settings = settings_without_option(g_policy);
    if (auto value = option_in_step(sp, g_hang_detect, g_hang_name)) {
        OptionParse parsed = parse_hang_detect(value->c_str(), g_policy);
        if (!parsed.error.empty()) {
            slurm_error("jobsentry: job %u not watched: %s", job_id, parsed.error.c_str());
            return 0;
        }
        settings = parsed.settings;
    }
    const CheckpointRequest ckpt = checkpoint_in_step(sp, job_id, step_id);
    if (!settings.enabled && ckpt.signal == 0) return 0;
    // The supervisor (the job's leader) runs on the job's first node. A step's
    // node ids count the step's nodes: its first node is the job's for the
    // batch step and for steps over the whole allocation; a supervisor started
    // on another node (mpirun's daemons run in a step over the other nodes)
    // sees that and leaves (docs/multi-node.md).
    if (node_index(sp) != 0) return 0;
    std::vector<std::string> argv = supervisor_argv(g_policy, settings, job_id);
    for (std::string& arg : checkpoint_supervisor_args(g_policy, ckpt, settings.enabled)) argv.push_back(std::move(arg));
    std::string err = start_supervisor(g_policy, job_id, 0, argv);
    if (!err.empty()) slurm_error("jobsentry: job %u not watched: %s", job_id, err.c_str());
    return 0;
}

}  // namespace

JOBSENTRY_EXPORT int slurm_spank_init(spank_t sp, int ac, char** av) {
    try {
        std::vector<std::string> args(av, av + ac);
        PolicyParse parsed = parse_site_policy(args, JOBSENTRY_DEFAULT_SUPERVISOR);
        if (!parsed.error.empty()) {
            slurm_error("jobsentry: disabled: %s", parsed.error.c_str());
            g_disabled = true;
        } else {
            g_policy = parsed.policy;
        }
        const spank_context_t ctx = spank_context();
        // Once per slurmd start: which build the node runs, for bug reports.
        if (ctx == S_CTX_SLURMD)
            slurm_info("%s loaded%s", version_line().c_str(), g_disabled ? " (disabled: see the error above)" : "");
        if (ctx != S_CTX_LOCAL && ctx != S_CTX_ALLOCATOR && ctx != S_CTX_REMOTE) return 0;
        // Registered even when disabled: a job script that asks for
        // --hang-detect must still be accepted, and runs unwatched.
        g_hang_usage = g_disabled ? "Detect hung MPI ranks (jobsentry); disabled at this site: see the slurmd log"
                                  : option_usage(g_policy);
        g_noise_usage = g_disabled ? "Measure OS noise at job start (jobsentry); disabled at this site"
                                   : noise_option_usage(g_policy);
        g_rma_usage = rma_option_usage();
        g_ckpt_usage = g_disabled ? "Checkpoint signal at the Young/Daly period (jobsentry); disabled at this site"
                                  : checkpoint_option_usage(g_policy);
        // has_arg 2: the value is optional (the bare option takes the site's defaults).
        static spank_option options[] = {
            option_entry(g_hang_name, g_hang_arginfo, g_hang_usage, 2, on_hang_detect),
            option_entry(g_noise_name, g_noise_arginfo, g_noise_usage, 2, on_noise_probe),
            option_entry(g_rma_name, g_rma_arginfo, g_rma_usage, 2, on_rma_check),
            option_entry(g_ckpt_name, g_ckpt_arginfo, g_ckpt_usage, 1, on_checkpoint),
        };
        for (spank_option& option : options)
            if (spank_option_register(sp, &option) != ESPANK_SUCCESS) {
                slurm_error("jobsentry: disabled: cannot register --%s", option.name);
                g_disabled = true;
            }
    } catch (...) {
        g_disabled = true;
    }
    return 0;
}

JOBSENTRY_EXPORT int slurm_spank_init_post_opt(spank_t sp, int, char**) {
    try {
        if (g_disabled || !spank_remote(sp)) return 0;
        return start_for_step(sp);
    } catch (...) {
        return 0;
    }
}

// Every job of a site with mtbf= gets JOBSENTRY_MTBF (and the cost guess),
// so that applications linked with jobsentry_ckpt get λ by themselves; a
// value the user set is kept.
JOBSENTRY_EXPORT int slurm_spank_user_init(spank_t sp, int, char**) {
    try {
        if (g_disabled || !spank_remote(sp)) return 0;
        for (const auto& [name, value] : checkpoint_environment(g_policy))
            spank_setenv(sp, name.c_str(), value.c_str(), 0);
    } catch (...) {
    }
    return 0;
}

JOBSENTRY_EXPORT int slurm_spank_exit(spank_t sp, int, char**) {
    try {
        if (g_disabled || !spank_remote(sp)) return 0;
        uint32_t job_id = 0, step_id = 0;
        if (spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS ||
            spank_get_item(sp, S_JOB_STEPID, &step_id) != ESPANK_SUCCESS)
            return 0;
        // The batch step ends a batch job; the extern step ends every job
        // (with PrologFlags=Contain). Without either, the supervisor notices
        // by itself that the job's cgroup is gone.
        if (step_id == SLURM_BATCH_SCRIPT || step_id == SLURM_EXTERN_CONT) {
            // The RMA verdict first: its clause is then kept by the hang
            // supervisor's end annotation.
            std::string err = analyse_rma_once(g_policy, job_id, rma_job_argv(g_policy, job_id), kRmaAnalysisMs);
            if (!err.empty()) slurm_error("jobsentry: job %u: --rma-check analysis: %s", job_id, err.c_str());
            stop_supervisor(g_policy, job_id, node_index(sp), kStopWaitMs);
            forget_noise_probe(g_policy, job_id);
        }
    } catch (...) {
    }
    return 0;
}

// In each task, as the job's user, after the chdir to its working directory:
// --rma-check's trace directory (created here, with the user's own rights)
// and the preload module in the task's environment. The batch script is a
// task too, so mpirun and its ranks inherit it.
JOBSENTRY_EXPORT int slurm_spank_task_init(spank_t sp, int, char**) {
    try {
        if (g_disabled || !spank_remote(sp)) return 0;
        auto value = option_in_step(sp, g_rma_check, g_rma_name);
        if (!value) return 0;
        RmaOptionParse parsed = parse_rma_check(value->c_str());
        if (parsed.mode == RmaMode::off) return 0;
        uint32_t job_id = 0;
        if (spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS) return 0;
        char cwd[4096] = {};
        if (!getcwd(cwd, sizeof cwd)) return 0;
        const std::string dir = rma_trace_dir(g_policy, cwd, job_id);
        struct stat st {};
        if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
            slurm_error("jobsentry: --rma-check: cannot create %s: %s; the job runs unchecked", dir.c_str(),
                        std::strerror(errno));
            return 0;
        }
        if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
            slurm_error("jobsentry: --rma-check: %s is not a directory of yours; the job runs unchecked", dir.c_str());
            return 0;
        }
        char old[4096] = {};
        if (spank_getenv(sp, "LD_PRELOAD", old, sizeof old) != ESPANK_SUCCESS) old[0] = '\0';
        for (const auto& [name, val] : rma_task_env(g_policy, parsed.mode, dir, old))
            spank_setenv(sp, name.c_str(), val.c_str(), 1);
    } catch (...) {
    }
    return 0;
}
