// Rank discovery: rank variables in an environment block, descendants in a pid tree, real ranks and their launchers.
#include "catch_compat.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "hang/watch/discovery.h"
#include "base/process_tree.h"

using namespace jobsentry;

namespace {

std::string env(std::initializer_list<std::string> vars) {
    std::string block;
    for (const auto& v : vars) block += v + '\0';
    return block;
}

// A process that runs `sleep 30` with the environment of MPI rank `rank`.
pid_t spawn_rank(int rank) {
    const pid_t pid = fork();
    if (pid == 0) {
        std::string var = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
        char* envp[] = {var.data(), nullptr};
        char* argv[] = {const_cast<char*>("sleep"), const_cast<char*>("30"), nullptr};
        execve("/bin/sleep", argv, envp);
        _exit(127);
    }
    return pid;
}

}  // namespace

TEST_CASE("rank_from_environ", "[discovery]") {
    struct Row {
        const char* what;
        std::string block;
        std::optional<int> rank;
    };
    const std::vector<Row> rows{
        {"Open MPI", env({"HOME=/home/u", "OMPI_COMM_WORLD_RANK=3", "PATH=/bin"}), 3},
        {"PMIx", env({"PMIX_RANK=7"}), 7},
        {"PMI", env({"PMI_RANK=0"}), 0},
        {"last entry without NUL", std::string("A=1") + '\0' + "PMI_RANK=12", 12},
        {"Open MPI beats PMIx", env({"PMIX_RANK=5", "OMPI_COMM_WORLD_RANK=2"}), 2},
        {"PMIx beats PMI", env({"PMI_RANK=9", "PMIX_RANK=4"}), 4},
        {"all three", env({"PMI_RANK=1", "PMIX_RANK=2", "OMPI_COMM_WORLD_RANK=3"}), 3},
        {"garbage OMPI falls back to PMIx", env({"OMPI_COMM_WORLD_RANK=abc", "PMIX_RANK=6"}), 6},
        {"abc", env({"PMI_RANK=abc"}), std::nullopt},
        {"negative", env({"PMI_RANK=-1"}), std::nullopt},
        {"empty value", env({"OMPI_COMM_WORLD_RANK="}), std::nullopt},
        {"trailing junk", env({"PMIX_RANK=12x"}), std::nullopt},
        {"huge", env({"PMI_RANK=99999999999999999999"}), std::nullopt},
        {"name only ends with PMI_RANK", env({"XPMI_RANK=3"}), std::nullopt},
        {"other suffix", env({"MY_OMPI_COMM_WORLD_RANK=3", "APMIX_RANK=1"}), std::nullopt},
        {"name is a prefix of another", env({"PMI_RANKS=3", "PMI_RANK_X=4"}), std::nullopt},
        {"value mentions a rank", env({"NOTE=PMI_RANK=3"}), std::nullopt},
        {"no rank", env({"HOME=/home/u"}), std::nullopt},
        {"empty block", "", std::nullopt},
        {"OMPI_COMM_WORLD_LOCAL_RANK is not the rank", env({"OMPI_COMM_WORLD_LOCAL_RANK=1"}), std::nullopt},
    };
    for (const auto& row : rows) {
        INFO(row.what);
        CHECK(rank_from_environ(row.block) == row.rank);
    }
}

namespace {

std::vector<pid_t> sorted(std::vector<pid_t> v) {
    std::sort(v.begin(), v.end());
    return v;
}

}  // namespace

TEST_CASE("descendants_of", "[discovery]") {
    //   1 -> 10 -> 100, 101 -> 1000
    //     -> 11
    //   2 -> 20 (unrelated)
    const std::map<pid_t, pid_t> tree{{1, 0},     {10, 1},   {11, 1}, {100, 10},
                                      {101, 10},  {1000, 101}, {2, 0}, {20, 2}};
    CHECK(sorted(descendants_of(1, tree)) == std::vector<pid_t>{10, 11, 100, 101, 1000});
    CHECK(sorted(descendants_of(10, tree)) == std::vector<pid_t>{100, 101, 1000});
    CHECK(descendants_of(1000, tree).empty());
    CHECK(descendants_of(12345, tree).empty());
    CHECK(sorted(descendants_of(2, tree)) == std::vector<pid_t>{20});

    // Breadth first: every parent comes before its children.
    const auto order = descendants_of(1, tree);
    auto pos = [&](pid_t p) { return std::find(order.begin(), order.end(), p) - order.begin(); };
    CHECK(pos(10) < pos(100));
    CHECK(pos(101) < pos(1000));
}

TEST_CASE("descendants_of survives cycles in a racy /proc snapshot", "[discovery]") {
    // The root in a cycle, a self-parented root, a cycle not reachable from the root.
    CHECK(sorted(descendants_of(1, {{1, 3}, {2, 1}, {3, 2}})) == std::vector<pid_t>{2, 3});
    CHECK(descendants_of(5, {{5, 5}}).empty());
    CHECK(sorted(descendants_of(1, {{2, 1}, {7, 8}, {8, 7}})) == std::vector<pid_t>{2});
}

TEST_CASE("maps_name_mpi_library", "[discovery]") {
    const std::string line = "7f0000000000-7f0000001000 r-xp 00000000 08:01 123 ";
    CHECK(maps_name_mpi_library(line + "/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4\n"));
    CHECK(maps_name_mpi_library(line + "/usr/lib/libc.so.6\n" + line + "/opt/ompi/lib/libmpi.so.40"));  // last line, no newline
    CHECK_FALSE(maps_name_mpi_library(line + "/usr/lib/libc.so.6\n" + line + "[heap]\n"));
    // A slash of an earlier line never names a later line's mapping.
    CHECK_FALSE(maps_name_mpi_library(line + "/usr/lib/libc.so.6\n" + line + "[anon:libmpi.so]\n"));
    CHECK_FALSE(maps_name_mpi_library(""));
    CHECK_FALSE(maps_name_mpi_library("\n\n/"));
}

namespace {
RankProcess rank_on(int rank, const std::string& node, uint64_t start_time, pid_t pid) {
    RankProcess r;
    r.rank = rank;
    r.node = node;
    r.start_time = start_time;
    r.pid = pid;
    return r;
}
}  // namespace

TEST_CASE("newest_of_each_rank keeps a node's running step, sorted by rank", "[discovery]") {
    // Step 1's rank 0 has not been reaped yet when step 2's starts: step 2's is the one to watch.
    const auto out = newest_of_each_rank({rank_on(1, "", 500, 11), rank_on(0, "", 100, 10), rank_on(0, "", 900, 20)});
    REQUIRE(out.size() == 2);
    CHECK(out[0].rank == 0);
    CHECK(out[0].pid == 20);
    CHECK(out[1].rank == 1);
    // Start times of different nodes do not compare: the first listed stays, whatever its clock says.
    const auto across = newest_of_each_rank({rank_on(4, "n1", 100, 30), rank_on(4, "n2", 900, 31)});
    REQUIRE(across.size() == 1);
    CHECK(across[0].node == "n1");
}

TEST_CASE("merge_reported_ranks names a rank number two nodes report", "[discovery]") {
    SECTION("no collision: every rank, nothing ambiguous") {
        const auto out = merge_reported_ranks({rank_on(0, "", 100, 10), rank_on(1, "", 100, 11)}, "n0",
                                              {rank_on(2, "n1", 5, 20), rank_on(3, "n1", 5, 21)});
        CHECK(out.ambiguous.empty());
        REQUIRE(out.ranks.size() == 4);
        CHECK(out.ranks[2].node == "n1");
    }
    SECTION("a number seen here and reported by an agent: watched here, named") {
        // Two concurrent steps, one on each node, both with a rank 0.
        const auto out = merge_reported_ranks({rank_on(0, "", 100, 10)}, "n0", {rank_on(0, "n1", 5, 20)});
        REQUIRE(out.ranks.size() == 1);
        CHECK(out.ranks[0].node.empty());
        CHECK(out.ambiguous == "rank 0 is reported by both n0 and n1");
    }
    SECTION("two agents report one number: the first is watched, both are named") {
        const auto out = merge_reported_ranks({}, "n0", {rank_on(7, "n2", 5, 20), rank_on(7, "n3", 5, 30)});
        REQUIRE(out.ranks.size() == 1);
        CHECK(out.ranks[0].node == "n2");
        CHECK(out.ambiguous == "rank 7 is reported by both n2 and n3");
    }
    SECTION("one step after another on this node is not ambiguous") {
        const auto out = merge_reported_ranks({rank_on(0, "", 100, 10), rank_on(0, "", 200, 12)}, "n0",
                                              {rank_on(1, "n1", 5, 20)});
        CHECK(out.ambiguous.empty());
        REQUIRE(out.ranks.size() == 2);
        CHECK(out.ranks[0].pid == 12);
    }
}

TEST_CASE("a rank's launcher is its parent where that is the job's and no rank, never the supervisor", "[discovery]") {
    // Rank 0 below a launcher of ours (as mpirun starts its ranks), rank 1 our own child (as
    // `jobsentry watch -- ./program` starts a singleton): our own writes are no output of the job's.
    const pid_t launcher = fork();
    REQUIRE(launcher >= 0);
    if (launcher == 0) {
        const pid_t rank = spawn_rank(0);
        int status = 0;
        waitpid(rank, &status, 0);
        _exit(0);
    }
    const pid_t own = spawn_rank(1);
    REQUIRE(own > 0);
    Discovery found;
    for (int i = 0; i < 200 && found.ranks.size() < 2; ++i) {  // until both have exec'd
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        found = discover_ranks(getpid(), getuid());
    }
    REQUIRE(found.ranks.size() == 2);
    CHECK(found.ranks[0].rank == 0);
    CHECK(found.ranks[0].launcher == launcher);
    CHECK(found.ranks[1].rank == 1);
    CHECK(found.ranks[1].pid == own);
    CHECK(found.ranks[1].launcher == 0);
    kill(found.ranks[0].pid, SIGKILL);
    kill(own, SIGKILL);
    int status = 0;
    waitpid(launcher, &status, 0);
    waitpid(own, &status, 0);
}

TEST_CASE("the srun of a job's one step is found; a step's child srun is part of it, two steps give none", "[discovery]") {
    CHECK_FALSE(sole_step_srun({}).has_value());
    CHECK(sole_step_srun({{8193, 8190}}) == std::optional<pid_t>(8193));
    // Slurm 22.05: srun 8193 (the batch script's child) and its own child srun 8196.
    CHECK(sole_step_srun({{8193, 8190}, {8196, 8193}}) == std::optional<pid_t>(8193));
    // Two steps at once, each with its child: neither relays the whole job's output.
    CHECK_FALSE(sole_step_srun({{8193, 8190}, {8196, 8193}, {9001, 8190}, {9004, 9001}}).has_value());
}
