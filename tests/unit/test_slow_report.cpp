// Where the slow verdict shows: the tracker's news (what the watcher logs and
// tells the job), the report's JSON and text, and the AdminComment's clause,
// kept by the hang and end verdicts written after it.
#include "catch_compat.hpp"

#include "hang/watch/report_slow.h"
#include "hang/watch/slow_tracker.h"
#include "slurm/annotation.h"

using namespace jobsentry;

namespace {

// Rank 2 computes while the other three wait in every round from `slow_from`
// on; before, the ranks take turns, nobody waited for more than the others.
std::vector<SlowTracker::Sampled> round_of(int i, int slow_from) {
    std::vector<SlowTracker::Sampled> out;
    for (int r = 0; r < 4; ++r) {
        const bool works = i >= slow_from ? r == 2 || i % 3 == 0 : (i + r) % 4 == 0 || i % 2 == 0;
        out.push_back({r, r < 2 ? "" : "n2", works ? Activity::computing : Activity::in_mpi});
    }
    return out;
}

SlowVerdict slow_verdict() {
    SlowRankConfig c;
    c.baseline_rounds = 64;
    SlowTracker t(c);
    t.set_local_node("n1");
    for (int i = 0; i < 200; ++i) t.observe(1000 + i, round_of(i, 100));
    return t.verdict();
}

}  // namespace

TEST_CASE("the tracker tells the baseline's end once and a slow verdict once per set of units", "[slow]") {
    SlowRankConfig c;
    c.baseline_rounds = 64;
    SlowTracker t(c);
    t.set_local_node("n1");
    std::vector<std::string> news;
    for (int i = 0; i < 200; ++i) {
        t.observe(1000 + i, round_of(i, 100));
        if (std::string n = t.news(); !n.empty()) news.push_back(n);
    }
    REQUIRE(news.size() == 2);
    CHECK_THAT(news[0], Catch::StartsWith("slow verdict: baseline of 64 rounds complete"));
    // Rank 2 alone on node n2 with rank 3, which is healthy: named alone, with its node.
    CHECK_THAT(news[1], Catch::StartsWith("slow: rank 2 (node n2) ~"));
    CHECK_THAT(news[1], Catch::Contains("slower than its peers since 1970-01-01T00:"));
    CHECK_THAT(news[1], Catch::Contains("<= alpha 0.0001"));
    CHECK(t.verdict().slow_ranks == std::vector<int>{2});
    CHECK(t.verdict().since >= 1095);
}

TEST_CASE("a balanced stream gets no news after its baseline", "[slow]") {
    SlowRankConfig c;
    c.baseline_rounds = 64;
    SlowTracker t(c);
    t.set_local_node("n1");
    int news = 0;
    for (int i = 0; i < 400; ++i) {
        t.observe(i, round_of(i, 1 << 30));
        news += !t.news().empty();
    }
    CHECK(news == 1);  // the baseline's end
    CHECK(t.verdict().status == SlowStatus::no_slow);
}

TEST_CASE("the report carries the slow verdict and its evidence", "[slow]") {
    const SlowVerdict v = slow_verdict();
    REQUIRE(v.status == SlowStatus::slow);
    const nlohmann::json j = slow_json(v);
    CHECK(j["status"] == "slow");
    CHECK(j["ranks"] == nlohmann::json::array({2}));
    CHECK(j["units"][0]["node"] == "n2");
    CHECK(j["units"][0]["compute_factor"].get<double>() > 1.1);
    CHECK(j["job_factor"].get<double>() > 1);
    CHECK(j["p_value"].get<double>() <= j["alpha"].get<double>());
    const std::string text = slow_text(v);
    CHECK_THAT(text, Catch::StartsWith("  slow:         slow: rank 2 (node n2) ~"));
    CHECK_THAT(text, Catch::Contains("rank 2: computes "));
    CHECK_FALSE(j.contains("output_rate_now"));
    // With the job's output rate as the job factor: its bytes a second before and since.
    SlowVerdict by_output = v;
    by_output.job_factor_from = "output_rate";
    by_output.output_rate_before = 48000, by_output.output_rate_now = 14500;
    CHECK(slow_json(by_output)["output_rate_now"] == 14500);
    CHECK_THAT(slow_text(by_output), Catch::Contains("from the job's output rate: 4.8e+04 bytes written a second at "
                                                     "baseline, 1.45e+04 since"));

    SlowVerdict learning;
    learning.baseline_rounds = 300;
    learning.rounds = 12;
    CHECK(slow_json(learning)["status"] == "learning");
    CHECK_FALSE(slow_json(learning).contains("units"));
    CHECK(slow_text(learning) == "  slow:         slow verdict undecided: 12 of 300 baseline rounds\n");
}

TEST_CASE("slow_action=drain: the nodes a slow verdict names, and the DRAIN reason", "[slow]") {
    const SlowVerdict v = slow_verdict();
    CHECK(nodes_to_drain(v, {"n1", "n2", "n3"}) == std::vector<std::string>{"n2"});
    SlowVerdict unplaced = v;
    unplaced.units.front().node.clear();
    CHECK(nodes_to_drain(unplaced, {"vm"}) == std::vector<std::string>{"vm"});  // a one-node job: its node
    CHECK(nodes_to_drain(unplaced, {"n1", "n2"}).empty());                     // never a guess among several
    SlowVerdict node = v;
    node.slow_nodes = {"n3"};
    CHECK(nodes_to_drain(node, {"n1", "n2", "n3"}) == std::vector<std::string>{"n3", "n2"});
    SlowVerdict quiet = v;
    quiet.status = SlowStatus::no_slow;
    CHECK(nodes_to_drain(quiet, {"vm"}).empty());
    const std::string reason = drain_reason(42, v);
    CHECK_THAT(reason, Catch::StartsWith("jobsentry job 42: slow: rank 2 (node n2) ~"));
    CHECK_THAT(reason, Catch::Contains(", p "));
}

TEST_CASE("slow_action=drain at job start: which node is this, and the NOISY reason", "[slow]") {
    CHECK(this_slurm_node({"n1", "n2"}, "n2", "host") == "n2");  // slurmd's name first
    CHECK(this_slurm_node({"n1", "n2"}, "", "n1") == "n1");      // else the host name
    CHECK(this_slurm_node({"vm"}, "other", "host") == "vm");     // else the job's only node
    CHECK(this_slurm_node({"n1", "n2"}, "n9", "host").empty());  // never a guess among several
    CHECK(this_slurm_node({}, "", "").empty());
    const std::string reason = noisy_drain_reason(42, "worst PU 1 31.2%, max detour 2.1ms (2 PUs, 1.0s); NOISY 31x the site baseline 1%");
    CHECK(reason == "jobsentry job 42: NOISY at job start: worst PU 1 31.2%, max detour 2.1ms (2 PUs, 1.0s); NOISY 31x the site baseline 1%");
    CHECK(noisy_drain_reason(42, std::string(1000, 'x') + "\nline").size() <= kMaxSlowClause);
}

TEST_CASE("the AdminComment's slow clause is bounded and outlives the verdicts after it", "[slow]") {
    const SlowVerdict v = slow_verdict();
    const std::string clause = slow_clause(v);
    CHECK_THAT(clause, Catch::StartsWith("jobsentry slow: rank 2 (node n2) ~"));
    CHECK_THAT(clause, Catch::Contains(" since 1970-01-01T00:"));
    CHECK(clause.size() <= kMaxSlowClause);

    SlowVerdict many = v;
    many.units.assign(200, v.units.front());
    CHECK(slow_clause(many).size() == kMaxSlowClause);

    const std::string comment = with_clause("", kSlowClauseKey, clause);
    CHECK(comment == clause);
    Report r;
    r.samples = 57;
    const std::string end = end_annotation(r, comment);
    CHECK(end == "jobsentry: no hang; 57 samples -- " + clause);
    // The end's report has the verdict with its estimate over every round since: the clause says that one.
    r.slow = v;
    r.slow.job_factor = 2.78;
    const std::string refreshed = end_annotation(r, comment);
    CHECK_THAT(refreshed, Catch::StartsWith("jobsentry: no hang; 57 samples -- jobsentry slow: rank 2 (node n2) ~2.78x"));
    CHECK(refreshed == "jobsentry: no hang; 57 samples -- " + slow_clause(r.slow));
    CHECK(end_annotation(r, "") == "jobsentry: no hang; 57 samples -- " + slow_clause(r.slow));  // never set before
    // A later slow verdict replaces its own clause only.
    CHECK(with_clause(end, kSlowClauseKey, "jobsentry slow: rank 3 ~1.50x") ==
          "jobsentry: no hang; 57 samples -- jobsentry slow: rank 3 ~1.50x");
}
