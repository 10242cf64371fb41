// The pure parts of the Slurm mode: cgroup files, annotations, options.
#include "catch_compat.hpp"

#include "slurm/annotation.h"
#include "slurm/job_cgroup.h"
#include "slurm/supervise_options.h"

using namespace jobsentry;

TEST_CASE("cgroup.procs lists are parsed with a bound, junk skipped") {
    CHECK(parse_pid_list("12\n345\n", 10) == std::vector<pid_t>{12, 345});
    CHECK(parse_pid_list("12\nabc\n-3\n\n7", 10) == std::vector<pid_t>{12, 7});
    CHECK(parse_pid_list("1\n2\n3\n", 2) == std::vector<pid_t>{1, 2});
    CHECK(parse_pid_list("99999999999\n", 10).empty());
}

TEST_CASE("a process's Slurm job cgroups are found in /proc/PID/cgroup") {
    const std::string text =
        "12:freezer:/slurm/uid_1001/job_42/step_batch\n"
        "11:cpu,cpuacct:/\n"
        "10:memory:/slurm/uid_1001/job_42/step_batch/task_0\n"
        "1:name=systemd:/\n"
        "0::/system.slice/slurmstepd.scope/job_7/step_0/user/task_0\n";
    auto found = job_cgroups_of(text);
    REQUIRE(found.size() == 3);
    CHECK(found[0].first == "freezer");
    CHECK(found[1].first == "memory");
    CHECK(found[2].first.empty());
    CHECK(job_cgroups_of("5:freezer:/user.slice\n").empty());
}

TEST_CASE("the hang annotation is one line naming time, delay, suspects, action and report") {
    Report r;
    r.detected_at = 1795344063;  // 2026-11-22T10:41:03Z
    r.suspicious_since = r.detected_at - 4.1;
    r.suspect_ranks = {3};
    std::string a = hang_annotation(r, "cancel", "/home/u/jobsentry-42.json");
    CHECK(a == "jobsentry: hang at 2026-11-22T10:41:03Z after 4.1s; suspect ranks 3; action cancel; report "
               "/home/u/jobsentry-42.json");
    // With progress seen later than the start of the suspicious run, "after" counts from the progress.
    r.progress_last_seen = r.detected_at - 2.5;
    CHECK_THAT(hang_annotation(r, "cancel", "/p"), Catch::Contains(" after 2.5s;"));
    for (int i = 0; i < 40; ++i) r.suspect_ranks.push_back(i);
    std::string many = hang_annotation(r, "cancel", "/x\nevil");
    CHECK_THAT(many, Catch::Contains("(41 in all)"));
    CHECK(many.find('\n') == std::string::npos);
    CHECK_THAT(hang_annotation(r, "report", ""), Catch::Contains("report not written"));
    r.suspect_ranks.clear();
    CHECK_THAT(hang_annotation(r, "cancel", "/p"), Catch::Contains("suspect ranks none named"));
    std::string long_path(3000, 'p');
    CHECK(hang_annotation(r, "cancel", long_path).size() <= kMaxAnnotation);
}

TEST_CASE("the end annotation counts samples and says why monitoring stopped") {
    Report r;
    r.samples = 57;
    CHECK(end_annotation(r) == "jobsentry: no hang; 57 samples");
    r.monitoring_problem = "ptrace of rank 0 was refused";
    CHECK(end_annotation(r) == "jobsentry: no hang; 57 samples; monitoring stopped: ptrace of rank 0 was refused");
    r.monitoring_problem.clear();
    // After a requeue, the earlier run's hang verdict stays visible.
    const std::string earlier = "jobsentry: hang at 2026-11-22T10:41:03Z after 4.1s; suspect ranks 3";
    CHECK(end_annotation(r, earlier) == "jobsentry: no hang; 57 samples -- earlier run: " + earlier);
    CHECK(end_annotation(r, "site note") == "jobsentry: no hang; 57 samples");
    // Other parts' clauses (the noise probe's) survive every verdict.
    const std::string noise = "jobsentry noise vm: worst PU 1 0.31%, max detour 1.2ms";
    CHECK(end_annotation(r, "jobsentry: no hang; 3 samples -- " + noise) == "jobsentry: no hang; 57 samples -- " + noise);
    CHECK(end_annotation(r, earlier + " -- " + noise) ==
          "jobsentry: no hang; 57 samples -- earlier run: " + earlier + " -- " + noise);
    CHECK_THAT(hang_annotation(r, "cancel", "/p", noise), Catch::EndsWith("; report /p -- " + noise));
}

TEST_CASE("with_clause replaces only its own clause of the AdminComment") {
    const std::string noise_a = "jobsentry noise a: worst PU 0 1%", noise_b = "jobsentry noise b: worst PU 3 2%";
    CHECK(with_clause("", "jobsentry noise a:", noise_a) == noise_a);
    CHECK(with_clause("a site's note", "jobsentry noise a:", noise_a) == noise_a);
    const std::string both = with_clause(with_clause("jobsentry: no hang; 5 samples", "jobsentry noise a:", noise_a),
                                         "jobsentry noise b:", noise_b);
    CHECK(both == "jobsentry: no hang; 5 samples -- " + noise_a + " -- " + noise_b);
    CHECK(with_clause(both, "jobsentry noise a:", "jobsentry noise a: worst PU 1 9%") ==
          "jobsentry: no hang; 5 samples -- jobsentry noise a: worst PU 1 9% -- " + noise_b);
    CHECK(part_clauses(both) == " -- " + noise_a + " -- " + noise_b);
    CHECK(part_clauses("site -- jobsentry noise a: x").empty());
}

TEST_CASE("supervise options: required job id, actions, ranges") {
    auto parse = [](std::vector<std::string> a) { return parse_supervise_options(a); };
    SuperviseParse ok = parse({"--job-id", "42", "--action", "requeue", "--interval-ms", "250", "--report-dir", "/r"});
    REQUIRE(ok.error.empty());
    CHECK(ok.options.job_id == 42);
    CHECK(ok.options.action == SlurmAction::requeue);
    CHECK(ok.options.interval_ms == 250);
    CHECK_THAT(parse({}).error, Catch::Contains("job-id"));
    CHECK_THAT(parse({"--job-id", "1", "--action", "kill"}).error, Catch::Contains("cancel, requeue, notify, report"));
    CHECK_THAT(parse({"--job-id", "1", "--report-dir", "rel"}).error, Catch::Contains("absolute"));
    CHECK_THAT(parse({"--job-id", "1", "--alpha", "0.7"}).error, Catch::Contains("0 < alpha < 0.5"));
    CHECK_THAT(parse({"--job", "1"}).error, Catch::Contains("job"));  // no abbreviations
}

TEST_CASE("supervise options: the checkpoint signal needs an MTBF; durations need units") {
    auto parse = [](std::vector<std::string> a) { return parse_supervise_options(a); };
    SuperviseParse ok = parse({"--job-id", "7", "--ckpt-signal", "10", "--mtbf", "20000ms", "--ckpt-cost", "400ms",
                               "--no-hang-detect"});
    REQUIRE(ok.error.empty());
    CHECK(ok.options.ckpt_signal == 10);
    CHECK(ok.options.mtbf_s == 20);
    CHECK(ok.options.ckpt_cost_s == Approx(0.4));
    CHECK_FALSE(ok.options.detect);
    SuperviseParse plain = parse({"--job-id", "7"});
    REQUIRE(plain.error.empty());
    CHECK(plain.options.detect);
    CHECK(plain.options.ckpt_signal == 0);
    CHECK(plain.options.ckpt_cost_s == 60);
    CHECK_THAT(parse({"--job-id", "7", "--ckpt-signal", "10"}).error, Catch::Contains("needs --mtbf"));
    CHECK_THAT(parse({"--job-id", "7", "--mtbf", "24"}).error, Catch::Contains("--mtbf 24: accepted values"));
    CHECK_THAT(parse({"--job-id", "7", "--ckpt-cost", "0s"}).error, Catch::Contains("--ckpt-cost 0s"));
    CHECK_THAT(parse({"--job-id", "7", "--ckpt-signal", "65", "--mtbf", "1h"}).error, Catch::Contains("1..64"));
    CHECK_THAT(parse({"--job-id", "7", "--no-hang-detect"}).error, Catch::Contains("nothing to do"));
}

TEST_CASE("the checkpoint clause names the period, C and the job MTBF, and joins the verdict's line") {
    CHECK(format_period(0.4) == "400ms");
    CHECK(format_period(4.04) == "4.0s");
    CHECK(format_period(725) == "12m05s");
    CHECK(format_period(3720) == "1h02m");
    CHECK(format_period(-1) == "?");
    CHECK(checkpoint_note(3720, 90, 675, "USR1", 3) ==
          "checkpoint every 1h02m by SIGUSR1 (Young/Daly, C=1m30s, job MTBF 11m15s; 3 sent)");
    CHECK(checkpoint_note(4, 0.4, 20, "", 0) == "Young/Daly period 4.0s (C=400ms guess, job MTBF 20.0s)");
    const std::string note = "checkpoint every 4.0s by SIGUSR1 (Young/Daly, C=400ms, job MTBF 20.0s; 2 sent)";
    CHECK(with_note("jobsentry: no hang; 5 samples", note) == "jobsentry: no hang; 5 samples; " + note);
    CHECK(with_note("jobsentry: no hang; 5 samples", "") == "jobsentry: no hang; 5 samples");
    const std::string earlier = " -- earlier run: jobsentry: hang at 2026-11-22T10:41:03Z after 4.1s; suspect ranks 3";
    CHECK(with_note("jobsentry: no hang; 5 samples" + earlier, note) ==
          "jobsentry: no hang; 5 samples; " + note + earlier);
    CHECK(with_note(std::string(990, 'x'), note).size() <= kMaxAnnotation);
    CHECK(with_note("a\nb", "c|d") == "a b; c/d");
}
