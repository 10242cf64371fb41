#include "catch_compat.hpp"

#include <algorithm>
#include <csignal>

#include "slurm/plugin/checkpoint_option.h"
#include "slurm/plugin/noise_option.h"
#include "slurm/plugin/rma_option.h"
#include "slurm/plugin/policy.h"
#include "base/text.h"
#include "tools/checkpoint/cost_guess.h"
#include "base/duration.h"

using namespace jobsentry;

namespace {
SitePolicy site(const std::vector<std::string>& args) {
    PolicyParse p = parse_site_policy(args, "/usr/bin/jobsentry");
    REQUIRE(p.error.empty());
    return p.policy;
}
}  // namespace

TEST_CASE("durations need a unit") {
    CHECK(parse_duration_ms("400ms") == 400);
    CHECK(parse_duration_ms("1s") == 1000);
    CHECK(parse_duration_ms("1.5s") == 1500);
    CHECK(parse_duration_ms("2m") == 120000);
    CHECK(parse_duration_ms("400") == -1);
    CHECK(parse_duration_ms("ms") == -1);
    CHECK(parse_duration_ms("-1s") == -1);
    CHECK(parse_duration_ms("1e3ms") == -1);
    CHECK(parse_duration_ms("1 s") == -1);
    CHECK(parse_duration_ms("300h") == -1);  // beyond 1e9 ms
}

TEST_CASE("durations in seconds take h and d too") {
    CHECK(parse_duration_seconds("24h") == 86400);
    CHECK(parse_duration_seconds("2d") == 172800);
    CHECK(parse_duration_seconds("90s") == 90);
    CHECK(parse_duration_seconds("250ms") == Approx(0.25));
    CHECK(parse_duration_seconds("1.5m") == 90);
    CHECK(parse_duration_seconds("24") == -1);
    CHECK(parse_duration_seconds("h") == -1);
    CHECK(parse_duration_seconds("-3h") == -1);
    CHECK(parse_duration_seconds("1e2s") == -1);
    CHECK(parse_duration_seconds("abc") == -1);
}

TEST_CASE("the bare option takes the site's defaults") {
    SitePolicy p = site({"alpha=0.005", "interval=1s", "ranks=4", "action=requeue"});
    OptionParse o = parse_hang_detect(nullptr, p);
    REQUIRE(o.error.empty());
    CHECK(o.settings.enabled);
    CHECK(o.settings.alpha == Approx(0.005));
    CHECK(o.settings.interval_ms == 1000);
    CHECK(o.settings.ranks == 4);
    CHECK(o.settings.action == SlurmAction::requeue);
    CHECK(parse_hang_detect("", p).settings.enabled);
    CHECK(parse_hang_detect("on", p).settings.enabled);
    OptionParse inherited = parse_hang_detect("(null)", p);  // how srun inside a job sees a bare option
    CHECK(inherited.error.empty());
    CHECK(inherited.settings.enabled);
}

TEST_CASE("user keys override the defaults") {
    SitePolicy p = site({});
    OptionParse o = parse_hang_detect("alpha=0.002,interval=250ms,ranks=8,action=notify", p);
    REQUIRE(o.error.empty());
    CHECK(o.settings.alpha == Approx(0.002));
    CHECK(o.settings.interval_ms == 250);
    CHECK(o.settings.ranks == 8);
    CHECK(o.settings.action == SlurmAction::notify);
}

TEST_CASE("bad user values are refused with the key and what is accepted") {
    SitePolicy p = site({});
    auto error = [&](const char* v) { return parse_hang_detect(v, p).error; };
    CHECK_THAT(error("alpha=2"), Catch::Contains("alpha=2") && Catch::Contains("accepted values are 0 < alpha <= 0.01"));
    CHECK_THAT(error("alpha=abc"), Catch::Contains("alpha=abc"));
    CHECK_THAT(error("alpha=0"), Catch::Contains("alpha=0"));
    CHECK_THAT(error("interval=400"), Catch::Contains("interval=400") && Catch::Contains("with a unit"));
    CHECK_THAT(error("interval=5ms"), Catch::Contains("from 100ms"));
    CHECK_THAT(error("ranks=0"), Catch::Contains("ranks=0") && Catch::Contains("1 to 64"));
    CHECK_THAT(error("ranks=65"), Catch::Contains("1 to 64"));
    CHECK_THAT(error("action=kill"), Catch::Contains("action=kill") && Catch::Contains("cancel, requeue, notify, report"));
    CHECK_THAT(error("colour=red"), Catch::Contains("unknown key 'colour'") && Catch::Contains("accepted keys are"));
    CHECK_THAT(error("alpha"), Catch::Contains("unknown key 'alpha'"));
    CHECK_THAT(error("off,alpha=0.001"), Catch::Contains("'off' cannot be combined"));
    CHECK_FALSE(error(std::string(600, 'a').c_str()).empty());
}

TEST_CASE("slow_requeue: the job's consent, only where the site requeues on a slow verdict") {
    SitePolicy requeue = site({"supervisor=/opt/js/bin/jobsentry", "slow_action=requeue_exclude"});
    OptionParse yes = parse_hang_detect("slow_requeue=yes", requeue);
    REQUIRE(yes.error.empty());
    CHECK(yes.settings.slow_requeue);
    const auto argv = supervisor_argv(requeue, yes.settings, 42);
    CHECK(std::find(argv.begin(), argv.end(), "--slow-requeue") != argv.end());
    CHECK(std::find(argv.begin(), argv.end(), "requeue_exclude") != argv.end());
    OptionParse no = parse_hang_detect("slow_requeue=no", requeue);
    REQUIRE(no.error.empty());
    const auto quiet = supervisor_argv(requeue, no.settings, 42);
    CHECK(std::find(quiet.begin(), quiet.end(), "--slow-requeue") == quiet.end());
    CHECK_THAT(parse_hang_detect("slow_requeue=maybe", requeue).error,
               Catch::Contains("slow_requeue=maybe: accepted values are yes, no"));
    // Users choose only among what the site allows.
    CHECK_THAT(parse_hang_detect("slow_requeue=yes", site({"slow_action=drain"})).error,
               Catch::Contains("slow_requeue=yes: this site does not requeue jobs on a slow verdict (its slow_action is drain)"));
    CHECK(parse_hang_detect("slow_requeue=no", site({})).error.empty());
    CHECK_THAT(parse_hang_detect("colour=red", requeue).error, Catch::Contains("slow_requeue="));
    CHECK_THAT(option_usage(requeue), Catch::Contains("slow_requeue=yes|no"));
    CHECK_THAT(option_usage(site({})), !Catch::Contains("slow_requeue"));
}

TEST_CASE("site limits bind users") {
    SitePolicy p = site({"min_interval=1s", "max_ranks=4", "max_alpha=0.001", "actions=cancel,report"});
    CHECK_THAT(parse_hang_detect("interval=500ms", p).error, Catch::Contains("from 1s"));
    CHECK(parse_hang_detect("interval=2s", p).error.empty());
    CHECK_THAT(parse_hang_detect("ranks=5", p).error, Catch::Contains("1 to 4"));
    CHECK_THAT(parse_hang_detect("alpha=0.002", p).error, Catch::Contains("alpha <= 0.001"));
    CHECK_THAT(parse_hang_detect("action=requeue", p).error, Catch::Contains("accepted values are cancel, report"));
    // Built-in defaults are pulled inside the limits.
    CHECK(p.defaults.interval_ms == 1000);
    CHECK(p.defaults.ranks == 4);
    CHECK(p.defaults.alpha <= 0.001);
}

TEST_CASE("default=on watches jobs without the option; opting out as the site allows") {
    SitePolicy off = site({});
    CHECK_FALSE(settings_without_option(off).enabled);
    SitePolicy on = site({"default=on"});
    CHECK(settings_without_option(on).enabled);
    OptionParse out = parse_hang_detect("off", on);
    CHECK(out.error.empty());
    CHECK_FALSE(out.settings.enabled);
    SitePolicy strict = site({"default=on", "allow_optout=no"});
    CHECK_THAT(parse_hang_detect("off", strict).error, Catch::Contains("does not allow opting out"));
}

TEST_CASE("bad plugstack arguments name the argument and what is accepted") {
    auto error = [](std::vector<std::string> args) { return parse_site_policy(args, "/usr/bin/jobsentry").error; };
    CHECK_THAT(error({"default=maybe"}), Catch::Contains("default=maybe") && Catch::Contains("on, off"));
    CHECK_THAT(error({"allow_optout=1"}), Catch::Contains("yes, no"));
    CHECK_THAT(error({"verbose"}), Catch::Contains("not KEY=VALUE"));
    CHECK_THAT(error({"colour=red"}), Catch::Contains("unknown plugstack.conf argument 'colour'"));
    CHECK_THAT(error({"supervisor=bin/jobsentry"}), Catch::Contains("absolute path"));
    CHECK_THAT(error({"report_dir=/a/../etc"}), Catch::Contains("absolute path"));
    CHECK_THAT(error({"min_interval=1"}), Catch::Contains("with a unit"));
    CHECK_THAT(error({"actions=cancel,explode"}), Catch::Contains("comma-separated list"));
    CHECK_THAT(error({"max_alpha=0.5"}), Catch::Contains("0 < max_alpha < 0.5"));
    CHECK_THAT(error({"log_samples=on"}), Catch::Contains("log_samples=on") && Catch::Contains("yes, no"));
    // Defaults are checked against limits, whatever the order.
    CHECK_THAT(error({"interval=50ms", "min_interval=100ms"}), Catch::Contains("interval=50ms"));
    CHECK_THAT(error({"action=requeue", "actions=cancel"}), Catch::Contains("action=requeue"));
    CHECK(error({"default=on", "interval=1s", "supervisor=/opt/js/bin/jobsentry", "report_dir=/var/spool/js"}).empty());
}

TEST_CASE("every site key of the spec is parsed, and refused with the spec's accepted values") {
    // One good and one bad value per type of site_spec.h; a key the parser
    // forgot, or an error text that differs from the spec, fails here.
    auto good = [](SiteValue t) -> std::string {
        switch (t) {
            case SiteValue::on_off: return "on";
            case SiteValue::yes_no: return "no";
            case SiteValue::path: return "/srv/js";
            case SiteValue::duration: return "5s";
            case SiteValue::number: return "4.5";
            case SiteValue::count: return "4";
            case SiteValue::action: return "report";
            case SiteValue::action_list: return "cancel,report";
            case SiteValue::port_range: return "7200-7210";
            case SiteValue::slow_action: return "drain";
        }
        return "";
    };
    for (const SiteKeySpec& k : kSiteKeys) {
        INFO(k.key);
        const std::string key = k.key;
        std::vector<std::string> args{key + "=" + good(k.type)};
        if (key == "action") args.push_back("actions=cancel,report");
        CHECK(parse_site_policy(args, "/usr/bin/jobsentry").error.empty());
        const std::string bad = key + "=nonsense";
        CHECK_THAT(parse_site_policy({bad}, "/usr/bin/jobsentry").error,
                   Catch::Contains(bad + ": accepted values are " + (k.type == SiteValue::action ? std::string("cancel") : accepted_values(k))));
    }
    CHECK_THAT(parse_site_policy({"noise_duration=50ms"}, "/usr/bin/jobsentry").error,
               Catch::Contains("durations from 100ms to 600s"));
    CHECK(parse_site_policy({"noise_duration=10s"}, "/usr/bin/jobsentry").policy.noise_duration_ms == 10000);
    CHECK(parse_site_policy({"ckpt_cost=90s"}, "/usr/bin/jobsentry").policy.ckpt_cost_s == 90);
    CHECK(parse_site_policy({"noise_factor=4.5"}, "/usr/bin/jobsentry").policy.noise_factor == 4.5);
    CHECK_THAT(parse_site_policy({"noise_factor=1"}, "/usr/bin/jobsentry").error,
               Catch::Contains("noise_factor=1: accepted values are numbers from 1.5 to 100"));
    CHECK(parse_site_policy({"agent_fan_in=2"}, "/usr/bin/jobsentry").policy.agent_fan_in == 2);
    for (const char* bad : {"agent_fan_in=0", "agent_fan_in=2.5", "agent_fan_in=4097", "agent_fan_in=-1"})
        CHECK_THAT(parse_site_policy({bad}, "/usr/bin/jobsentry").error,
                   Catch::Contains(std::string(bad) + ": accepted values are whole numbers from 1 to 4096"));
    // The defaults the docs show are the ones in force.
    const SitePolicy none = parse_site_policy({}, "/usr/bin/jobsentry").policy;
    CHECK(std::string(kSiteKeys[kAgentFanIn].default_text) == "`" + std::to_string(none.agent_fan_in) + "`");
    CHECK(std::string(kSiteKeys[kNoiseDuration].default_text) == "`" + format_ms(none.noise_duration_ms) + "`");
    CHECK(std::string(kSiteKeys[kNoiseFactor].default_text) == "`" + format_number(none.noise_factor) + "`");
    CHECK(none.noise_baseline.empty());
    CHECK(std::string(kSiteKeys[kMaxNoiseDuration].default_text) == "`" + format_ms(none.max_noise_duration_ms) + "`");
    CHECK(std::string(kSiteKeys[kCkptCost].default_text).rfind(
              "`" + format_ms(static_cast<int>(ckpt::kCheckpointCostGuessS * 1000)) + "`", 0) == 0);
    CHECK(std::string(kSiteKeys[kLeaderPorts].default_text) == "`" + to_string(none.leader_ports) + "`");
    CHECK(std::string(kSiteKeys[kStateDir].default_text) == "`" + none.state_dir + "`");
    CHECK(std::string(kSiteKeys[kLogDir].default_text) == "`" + none.log_dir + "`");
}

TEST_CASE("the supervisor's command line carries the settings, without a shell") {
    SitePolicy p = site({"supervisor=/opt/js/bin/jobsentry", "report_dir=/srv/reports", "state_dir=/run/js"});
    OptionParse o = parse_hang_detect("alpha=0.002,interval=250ms,ranks=3,action=requeue", p);
    auto argv = supervisor_argv(p, o.settings, 42);
    std::vector<std::string> expected{"/opt/js/bin/jobsentry", "supervise", "--job-id", "42", "--alpha", "0.002",
                                      "--interval-ms", "250", "--max-interval-ms", "4000", "--ranks", "3",
                                      "--action", "requeue", "--pid-file", "/run/js/job_42.pid", "--leader-ports", "7100-7199",
                                      "--fan-in", "32", "--report-dir", "/srv/reports"};
    CHECK(argv == expected);
    // log_samples=yes: every sample and judgement in the supervisor's log.
    SitePolicy verbose = site({"supervisor=/opt/js/bin/jobsentry", "log_samples=yes"});
    CHECK(supervisor_argv(verbose, o.settings, 42).back() == "--verbose");
    CHECK(supervisor_argv(p, o.settings, 42).back() != "--verbose");
    // slow_action=drain is the site's alone: the supervisor is told, report is its default.
    SitePolicy drain = site({"supervisor=/opt/js/bin/jobsentry", "slow_action=drain"});
    const auto d = supervisor_argv(drain, o.settings, 42);
    CHECK(std::vector<std::string>(d.end() - 2, d.end()) == std::vector<std::string>{"--slow-action", "drain"});
    CHECK(std::find(argv.begin(), argv.end(), "--slow-action") == argv.end());
    CHECK(site({}).slow_action == SlowAction::report);
    SitePolicy notify = site({"supervisor=/opt/js/bin/jobsentry", "slow_action=notify"});
    CHECK(notify.slow_action == SlowAction::notify);
    const auto n = supervisor_argv(notify, o.settings, 42);
    CHECK(std::vector<std::string>(n.end() - 2, n.end()) == std::vector<std::string>{"--slow-action", "notify"});
    // A job whose steady state starts early asks for a shorter slow baseline.
    OptionParse early = parse_hang_detect("slow_baseline_rounds=64", p);
    REQUIRE(early.error.empty());
    const auto e = supervisor_argv(p, early.settings, 42);
    const auto flag = std::find(e.begin(), e.end(), "--slow-baseline-rounds");
    REQUIRE(flag != e.end());
    CHECK(*(flag + 1) == "64");
    CHECK_THAT(parse_hang_detect("slow_baseline_rounds=8", p).error,
               Catch::Contains("slow_baseline_rounds=8: accepted values are whole numbers from 32 to 100000"));
    CHECK_THAT(parse_site_policy({"slow_action=requeue"}, "/usr/bin/jobsentry").error,
               Catch::Contains("slow_action=requeue: accepted values are report, notify, drain"));
}

TEST_CASE("spin_verify= is the site's: how long a rank may compute alone in one function") {
    SitePolicy p = site({"supervisor=/opt/js/bin/jobsentry"});
    OptionParse o = parse_hang_detect("", p);
    const auto plain = supervisor_argv(p, o.settings, 7);
    CHECK(std::find(plain.begin(), plain.end(), "--spin-verify-ms") == plain.end());  // the default, 60 s
    SitePolicy longer = site({"supervisor=/opt/js/bin/jobsentry", "spin_verify=5m"});
    CHECK(longer.defaults.spin_verify_ms == 300000);
    const auto argv = supervisor_argv(longer, parse_hang_detect("", longer).settings, 7);
    const auto flag = std::find(argv.begin(), argv.end(), "--spin-verify-ms");
    REQUIRE(flag != argv.end());
    CHECK(*(flag + 1) == "300000");
    CHECK_THAT(parse_site_policy({"spin_verify=20m"}, "/usr/bin/jobsentry").error,
               Catch::Contains("spin_verify=20m: accepted values are durations from 0s to 600s"));
    CHECK_THAT(parse_site_policy({"spin_verify=60"}, "/usr/bin/jobsentry").error,
               Catch::Contains("with a unit"));
    // Not a user's key: --hang-detect=spin_verify=... is refused.
    CHECK_FALSE(parse_hang_detect("spin_verify=1s", p).error.empty());
}

TEST_CASE("the option's help names the keys and the site's values") {
    SitePolicy p = site({"default=on", "min_interval=200ms"});
    std::string usage = option_usage(p);
    CHECK_THAT(usage, Catch::Contains("=off opts out") && Catch::Contains("at least 200ms") &&
                          Catch::Contains("action=cancel, requeue, notify, report"));
}

TEST_CASE("--noise-probe: off, a duration within the site's maximum, or the site's default") {
    SitePolicy p = site({});
    CHECK(parse_noise_probe(nullptr, p).duration_ms == 2000);
    CHECK(parse_noise_probe("", p).duration_ms == 2000);
    CHECK(parse_noise_probe("(null)", p).duration_ms == 2000);
    CHECK(parse_noise_probe("off", p).duration_ms == 0);
    CHECK(parse_noise_probe("500ms", p).duration_ms == 500);
    CHECK(parse_noise_probe("30s", p).duration_ms == 30000);
    for (const char* bad : {"31s", "0s", "50ms", "2", "fast", "-1s"}) {
        INFO(bad);
        CHECK_THAT(parse_noise_probe(bad, p).error,
                   Catch::Contains(std::string("--noise-probe=") + bad) && Catch::Contains("off or a duration from 100ms to 30s"));
    }
    SitePolicy site_wide = site({"noise_probe=on", "noise_duration=1s", "max_noise_duration=5s"});
    CHECK(noise_without_option(site_wide) == 1000);
    CHECK(noise_without_option(p) == 0);
    CHECK_THAT(parse_noise_probe("6s", site_wide).error, Catch::Contains("to 5s"));
    CHECK_THAT(noise_option_usage(site_wide), Catch::Contains("=off opts out"));
    // The site's own default must fit its maximum.
    auto error = [](std::vector<std::string> args) { return parse_site_policy(args, "/usr/bin/jobsentry").error; };
    CHECK_THAT(error({"noise_duration=10s", "max_noise_duration=5s"}), Catch::Contains("at most max_noise_duration"));
    CHECK_THAT(error({"noise_probe=yes"}), Catch::Contains("on, off"));
    CHECK_THAT(error({"noise_duration=5"}), Catch::Contains("with a unit"));
    auto argv = noise_probe_argv(site({"report_dir=/srv/r"}), 7, 1500);
    CHECK(argv == std::vector<std::string>{"/usr/bin/jobsentry", "noise-job", "--job-id", "7", "--duration-ms", "1500",
                                           "--report-dir", "/srv/r"});
    // slow_action=drain drains a NOISY node too: only where there is a baseline to judge it by.
    argv = noise_probe_argv(site({"noise_baseline=/etc/b.json", "slow_action=drain"}), 7, 1500);
    CHECK(argv.back() == "--drain-noisy");
    CHECK(noise_probe_argv(site({"noise_baseline=/etc/b.json"}), 7, 1500).back() != "--drain-noisy");
    argv = noise_probe_argv(site({"slow_action=drain"}), 7, 1500);
    CHECK(std::find(argv.begin(), argv.end(), "--drain-noisy") == argv.end());
}

TEST_CASE("--rma-check: modes, the task's environment, the trace directory") {
    CHECK(parse_rma_check(nullptr).mode == RmaMode::protect);
    CHECK(parse_rma_check("(null)").mode == RmaMode::protect);
    CHECK(parse_rma_check("precise").mode == RmaMode::precise);
    CHECK(parse_rma_check("off").mode == RmaMode::off);
    CHECK(parse_rma_check("all").mode == RmaMode::protect_all);
    CHECK_THAT(parse_rma_check("fast").error, Catch::Contains("--rma-check=fast") && Catch::Contains("all") &&
                                                  Catch::Contains("precise") && Catch::Contains("off"));
    SitePolicy p = site({"supervisor=/opt/js/bin/jobsentry"});
    CHECK(p.rma_lib == "/opt/js/lib/libjobsentry-rmacheck.so");  // beside the binary by default
    CHECK(rma_trace_dir(p, "/home/u/run", 9) == "/home/u/run/jobsentry-rma-9");
    CHECK(rma_trace_dir(site({"report_dir=/srv/r/"}), "/home/u/run", 9) == "/srv/r/jobsentry-rma-9");
    auto env = rma_task_env(p, RmaMode::precise, "/d", "/usr/lib/other.so");
    using Var = std::pair<std::string, std::string>;
    CHECK(env == std::vector<Var>{{"LD_PRELOAD", "/opt/js/lib/libjobsentry-rmacheck.so:/usr/lib/other.so"},
                                  {"JOBSENTRY_RMA_TRACE_DIR", "/d"},
                                  {"JOBSENTRY_RMA_MODE", "precise"},
                                  {"JOBSENTRY_RMA_SAMPLING", "on"}});
    // =all: mode 1 with every operation's buffers watched.
    auto all = rma_task_env(p, RmaMode::protect_all, "/d", "");
    CHECK(all[2] == Var{"JOBSENTRY_RMA_MODE", "protect"});
    CHECK(all[3] == Var{"JOBSENTRY_RMA_SAMPLING", "off"});
    // A step inside the batch step inherits the module: it is not added twice.
    CHECK(rma_task_env(p, RmaMode::protect, "/d", env[0].second)[0].second == env[0].second);
    CHECK(rma_task_env(p, RmaMode::protect, "/d", "")[0].second == "/opt/js/lib/libjobsentry-rmacheck.so");
    CHECK(rma_job_argv(p, 9) == std::vector<std::string>{"/opt/js/bin/jobsentry", "rma-job", "--job-id", "9"});
}

// --checkpoint=signal:SIG[,cost=D] and the site's mtbf=/ckpt_cost= (spank/checkpoint_option.h).
TEST_CASE("plugstack mtbf= and ckpt_cost= take durations with a unit") {
    SitePolicy p = site({"mtbf=24h", "ckpt_cost=90s"});
    CHECK(p.mtbf_s == 86400);
    CHECK(p.ckpt_cost_s == 90);
    CHECK(site({}).mtbf_s == 0);
    for (const char* bad : {"mtbf=24", "mtbf=0s", "mtbf=-1h", "mtbf=abc", "ckpt_cost=0ms", "ckpt_cost=90"}) {
        PolicyParse parsed = parse_site_policy({bad}, "/usr/bin/jobsentry");
        CHECK_THAT(parsed.error, Catch::Contains(bad) && Catch::Contains("positive durations with a unit"));
    }
    CHECK_THAT(parse_site_policy({"mtbf_node=1h"}, "/j").error, Catch::Contains("mtbf=, ckpt_cost="));
}

TEST_CASE("--checkpoint=signal:SIG names its signal, with or without SIG, and a cost") {
    SitePolicy p = site({"mtbf=24h"});
    struct Row {
        const char* value;
        int signal;
        double cost;
    };
    for (Row r : {Row{"signal:USR1", SIGUSR1, -1}, Row{"signal:SIGUSR2", SIGUSR2, -1},
                  Row{"signal:TERM,cost=90s", SIGTERM, 90}, Row{"cost=1.5m,signal:HUP", SIGHUP, 90}}) {
        CheckpointOptionParse c = parse_checkpoint_option(r.value, p);
        INFO(r.value);
        REQUIRE(c.error.empty());
        CHECK(c.request.signal == r.signal);
        CHECK(c.request.cost_s == r.cost);
    }
    CheckpointOptionParse off = parse_checkpoint_option("off", p);
    CHECK(off.error.empty());
    CHECK(off.request.signal == 0);
}

TEST_CASE("bad --checkpoint values are refused naming what is accepted") {
    SitePolicy p = site({"mtbf=24h"});
    struct Row {
        const char* value;
        const char* says;
    };
    for (Row r : {Row{"signal:KILL", "accepted signals are USR1, USR2, HUP, INT, TERM, ALRM"},
                  Row{"signal:usr1", "accepted signals are"}, Row{"signal:", "accepted signals are"},
                  Row{"signal:10", "accepted signals are"}, Row{"", "signal:SIG[,cost=DURATION] or off"},
                  Row{nullptr, "signal:SIG"}, Row{"USR1", "unknown key 'USR1'"},
                  Row{"cost=90s", "no signal:SIG given"}, Row{"signal:USR1,cost=90", "positive durations"},
                  Row{"signal:USR1,cost=0s", "positive durations"}, Row{"signal:USR1,cost=2d", "up to 1d"},
                  Row{"signal:USR1,", "unknown key ''"}, Row{"signal:USR1,off", "unknown key 'off'"}}) {
        INFO((r.value ? r.value : "(nullptr)"));
        CheckpointOptionParse c = parse_checkpoint_option(r.value, p);
        CHECK_THAT(c.error, Catch::Contains(r.says));
        CHECK(c.request.signal == 0);
    }
}

TEST_CASE("--checkpoint is refused where the site sets no MTBF") {
    CheckpointOptionParse c = parse_checkpoint_option("signal:USR1", site({}));
    CHECK_THAT(c.error, Catch::Contains("no node MTBF (plugstack.conf mtbf=)"));
    CHECK(c.request.signal == 0);
    CHECK(parse_checkpoint_option("off", site({})).error.empty());
}

TEST_CASE("the supervisor's checkpoint arguments and the job's environment") {
    CheckpointRequest none;
    CheckpointRequest usr1{SIGUSR1, "USR1", 0.4};
    CHECK(checkpoint_supervisor_args(site({}), usr1, true).empty());
    CHECK(checkpoint_environment(site({"ckpt_cost=90s"})).empty());

    SitePolicy p = site({"mtbf=20s", "ckpt_cost=90s"});
    using V = std::vector<std::string>;
    CHECK(checkpoint_supervisor_args(p, none, true) == V{"--mtbf", "20000ms", "--ckpt-cost", "90000ms"});
    CHECK(checkpoint_supervisor_args(p, usr1, true) ==
          V{"--mtbf", "20000ms", "--ckpt-cost", "400ms", "--ckpt-signal", std::to_string(SIGUSR1)});
    CHECK(checkpoint_supervisor_args(p, usr1, false) ==
          V{"--mtbf", "20000ms", "--ckpt-cost", "400ms", "--ckpt-signal", std::to_string(SIGUSR1), "--no-hang-detect"});
    CHECK(checkpoint_supervisor_args(site({"mtbf=1h"}), none, true) == V{"--mtbf", "3600000ms"});

    using E = std::vector<std::pair<std::string, std::string>>;
    CHECK(checkpoint_environment(p) == E{{"JOBSENTRY_MTBF", "20000ms"}, {"JOBSENTRY_CKPT_COST", "90000ms"}});
    CHECK(checkpoint_environment(site({"mtbf=24h"})) == E{{"JOBSENTRY_MTBF", "86400000ms"}});
    // What the plugin passes on reads back to the same durations.
    CHECK(parse_duration_seconds("86400000ms") == 86400);
}
