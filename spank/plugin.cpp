// jobsentry.so: the SPANK entry points, thin, split by context.
//   every context   slurm_spank_init: read the site policy, register --hang-detect
//   local/allocator the option callback refuses a bad value at submission
//   remote          slurm_spank_init_post_opt: start the job's supervisor
//                   (also for --checkpoint alone, from the batch step)
//                   slurm_spank_user_init: JOBSENTRY_MTBF for jobsentry_ckpt.h
//                   slurm_spank_exit: stop it when the job ends
// A bad plugstack.conf line is logged and disables the plugin; nothing here
// ever fails a job because monitoring could not start, and nothing throws
// into Slurm. See docs/slurm.md.
// spank.h declares the entry points outside its extern "C" block.
extern "C" {
#include <slurm/slurm.h>
#include <slurm/spank.h>
}

#include <optional>
#include <string>
#include <vector>

#include "checkpoint_option.h"
#include "policy.h"
#include "supervisor_process.h"

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
bool g_option_seen = false;
std::string g_option_value;
std::string g_usage;

int on_option(int, const char* value, int) {
    try {
        if (g_disabled) return 0;
        OptionParse parsed = parse_hang_detect(value, g_policy);
        if (!parsed.error.empty()) {
            slurm_error("%s", parsed.error.c_str());
            return -1;  // sbatch/srun/salloc then refuse to submit
        }
        g_option_seen = true;
        g_option_value = value ? value : "";
        return 0;
    } catch (...) {
        return -1;
    }
}

char g_option_name[] = "hang-detect";
char g_option_arginfo[] = "[KEY=VAL,...]";

// The value of the option as seen by a remote step: the callback (batch and
// job steps run it) or, failing that, the environment Slurm passes it in.
std::optional<std::string> option_in_step(spank_t sp) {
    if (g_option_seen) return g_option_value;
    char buf[1024] = {};
    for (const char* name : {"SLURM_SPANK__SLURM_SPANK_OPTION_jobsentry_hang_detect",
                             "SLURM_SPANK__SLURM_SPANK_OPTION_jobsentry_hang-detect"})
        if (spank_getenv(sp, name, buf, sizeof buf) == ESPANK_SUCCESS) return std::string(buf);
    return std::nullopt;
}

// --checkpoint (spank/checkpoint_option.h): refused at submission when bad.
bool g_ckpt_seen = false;
std::string g_ckpt_value;
std::string g_ckpt_usage;
char g_ckpt_name[] = "checkpoint";
char g_ckpt_arginfo[] = "signal:SIG[,cost=DURATION]";

int on_checkpoint(int, const char* value, int) {
    try {
        if (g_disabled) return 0;
        CheckpointOptionParse parsed = parse_checkpoint_option(value, g_policy);
        if (!parsed.error.empty()) {
            slurm_error("%s", parsed.error.c_str());
            return -1;
        }
        g_ckpt_seen = true;
        g_ckpt_value = value ? value : "";
        return 0;
    } catch (...) {
        return -1;
    }
}

// The checkpoint signal the batch step asks for; none in other steps (only
// the batch shell is signalled, by the supervisor the batch step starts).
CheckpointRequest checkpoint_in_step(spank_t sp, uint32_t job_id, uint32_t step_id) {
    if (step_id != SLURM_BATCH_SCRIPT) return {};
    std::string value = g_ckpt_value;
    char buf[512] = {};
    if (!g_ckpt_seen) {
        if (spank_getenv(sp, "SLURM_SPANK__SLURM_SPANK_OPTION_jobsentry_checkpoint", buf, sizeof buf) != ESPANK_SUCCESS)
            return {};
        value = buf;
    }
    CheckpointOptionParse parsed = parse_checkpoint_option(value.c_str(), g_policy);
    if (!parsed.error.empty()) slurm_error("jobsentry: job %u: no checkpoint signal: %s", job_id, parsed.error.c_str());
    return parsed.request;
}

int register_checkpoint_option(spank_t sp) {
    g_ckpt_usage = g_disabled ? "Checkpoint signal at the Young/Daly period (jobsentry); disabled at this site"
                              : checkpoint_option_usage(g_policy);
    static spank_option option{};
    option.name = g_ckpt_name;
    option.arginfo = g_ckpt_arginfo;
    option.usage = g_ckpt_usage.data();
    option.has_arg = 1;
    option.val = 0;
    option.cb = on_checkpoint;
    return spank_option_register(sp, &option) == ESPANK_SUCCESS ? 0 : -1;
}

int start_for_step(spank_t sp) {
    uint32_t job_id = 0, step_id = 0;
    if (spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_STEPID, &step_id) != ESPANK_SUCCESS)
        return 0;
    // The extern step never sees the user's option (Slurm 22.05), so it
    // cannot tell an opt-out from no option: the batch step and job steps decide.
    if (step_id == SLURM_EXTERN_CONT) return 0;
    HangDetectSettings settings = settings_without_option(g_policy);
    if (auto value = option_in_step(sp)) {
        OptionParse parsed = parse_hang_detect(value->c_str(), g_policy);
        if (!parsed.error.empty()) {
            slurm_error("jobsentry: job %u not watched: %s", job_id, parsed.error.c_str());
            return 0;
        }
        settings = parsed.settings;
    }
    const CheckpointRequest ckpt = checkpoint_in_step(sp, job_id, step_id);
    if (!settings.enabled && ckpt.signal == 0) return 0;
    std::vector<std::string> argv = supervisor_argv(g_policy, settings, job_id);
    for (std::string& arg : checkpoint_supervisor_args(g_policy, ckpt, settings.enabled)) argv.push_back(std::move(arg));
    std::string err = start_supervisor(g_policy, job_id, argv);
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
        if (ctx != S_CTX_LOCAL && ctx != S_CTX_ALLOCATOR && ctx != S_CTX_REMOTE) return 0;
        // Registered even when disabled: a job script that asks for
        // --hang-detect must still be accepted, and runs unwatched.
        g_usage = g_disabled ? "Detect hung MPI ranks (jobsentry); disabled at this site: see the slurmd log"
                             : option_usage(g_policy);
        static spank_option option{};
        option.name = g_option_name;
        option.arginfo = g_option_arginfo;
        option.usage = g_usage.data();
        option.has_arg = 2;  // the value is optional: bare --hang-detect uses the site's defaults
        option.val = 0;
        option.cb = on_option;
        if (spank_option_register(sp, &option) != ESPANK_SUCCESS) {
            slurm_error("jobsentry: disabled: cannot register --hang-detect");
            g_disabled = true;
        }
        if (register_checkpoint_option(sp) != 0) slurm_error("jobsentry: cannot register --checkpoint");
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
        if (step_id == SLURM_BATCH_SCRIPT || step_id == SLURM_EXTERN_CONT)
            stop_supervisor(g_policy, job_id, kStopWaitMs);
    } catch (...) {
    }
    return 0;
}
