// jobsentry.so: the SPANK entry points, thin, split by context.
//   every context   slurm_spank_init: read the site policy, register --hang-detect
//                   and --noise-probe
//   local/allocator the option callbacks refuse a bad value at submission
//   remote          slurm_spank_init_post_opt: the job's noise probe (once per
//                   node, before the tasks), then start the job's supervisor
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

#include "noise_option.h"
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

// A user option as this process saw it: its callback ran (submission, batch
// and job steps) with this value.
struct SeenOption {
    bool seen = false;
    std::string value;
};
SeenOption g_hang_detect, g_noise_probe;
std::string g_hang_usage, g_noise_usage;

int on_hang_detect(int, const char* value, int) {
    try {
        if (g_disabled) return 0;
        OptionParse parsed = parse_hang_detect(value, g_policy);
        if (!parsed.error.empty()) {
            slurm_error("%s", parsed.error.c_str());
            return -1;  // sbatch/srun/salloc then refuse to submit
        }
        g_hang_detect = {true, value ? value : ""};
        return 0;
    } catch (...) {
        return -1;
    }
}

int on_noise_probe(int, const char* value, int) {
    try {
        if (g_disabled) return 0;
        NoiseOptionParse parsed = parse_noise_probe(value, g_policy);
        if (!parsed.error.empty()) {
            slurm_error("%s", parsed.error.c_str());
            return -1;
        }
        g_noise_probe = {true, value ? value : ""};
        return 0;
    } catch (...) {
        return -1;
    }
}

char g_hang_name[] = "hang-detect";
char g_hang_arginfo[] = "[KEY=VAL,...]";
char g_noise_name[] = "noise-probe";
char g_noise_arginfo[] = "[DURATION|off]";

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

int start_for_step(spank_t sp) {
    uint32_t job_id = 0, step_id = 0;
    if (spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_STEPID, &step_id) != ESPANK_SUCCESS)
        return 0;
    // The extern step never sees the user's option (Slurm 22.05), so it
    // cannot tell an opt-out from no option: the batch step and job steps decide.
    if (step_id == SLURM_EXTERN_CONT) return 0;
    probe_noise_for_step(sp, job_id);
    HangDetectSettings settings = settings_without_option(g_policy);
    if (auto value = option_in_step(sp, g_hang_detect, g_hang_name)) {
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
        g_hang_usage = g_disabled ? "Detect hung MPI ranks (jobsentry); disabled at this site: see the slurmd log"
                                  : option_usage(g_policy);
        g_noise_usage = g_disabled ? "Measure OS noise at job start (jobsentry); disabled at this site"
                                   : noise_option_usage(g_policy);
        static spank_option options[2]{};
        options[0].name = g_hang_name;
        options[0].arginfo = g_hang_arginfo;
        options[0].usage = g_hang_usage.data();
        options[0].has_arg = 2;  // the value is optional: the bare option uses the site's defaults
        options[0].cb = on_hang_detect;
        options[1].name = g_noise_name;
        options[1].arginfo = g_noise_arginfo;
        options[1].usage = g_noise_usage.data();
        options[1].has_arg = 2;
        options[1].cb = on_noise_probe;
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
            stop_supervisor(g_policy, job_id, kStopWaitMs);
            forget_noise_probe(g_policy, job_id);
        }
    } catch (...) {
    }
    return 0;
}
