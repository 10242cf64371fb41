// jobsentry.so: the SPANK entry points, thin, split by context.
//   every context   slurm_spank_init: read the site policy, register --hang-detect
//   local/allocator the option callback refuses a bad value at submission
//   remote          slurm_spank_init_post_opt: start the job's supervisor
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
    if (!settings.enabled) return 0;
    std::string err = start_supervisor(g_policy, job_id, supervisor_argv(g_policy, settings, job_id));
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
