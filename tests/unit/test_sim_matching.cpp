// MPI matching in the simulator: any-source, tags, the unexpected queue,
// rendezvous, irequires, and deadlocks named.
#include "catch_compat.hpp"

#include <sstream>

#include "tools/simulator/engine.h"
#include "tools/simulator/goal_reader.h"
#include "sim_test_params.h"

using namespace jobsentry::sim;

namespace {

SimResult run_goal(const std::string& text) {
    std::istringstream in(text);
    Schedule s = read_goal(in, "test.goal");
    return simulate(s, small_params(8));
}

}  // namespace

TEST_CASE("matching: an any-source receive takes the first message that matches", "[simulator][matching]") {
    // Rank 2 posts 'from 1' first, then 'from any'; rank 0's message (at 120)
    // must go to the any-source receive, not wait for rank 1 (at 5120).
    SimResult r = run_goal(R"(num_ranks 3
rank 0 { s: send 1b to 2 tag 0; }
rank 1 { c: calc 5000; s: send 1b to 2 tag 0; s requires c; }
rank 2 { a: recv 1b from 1 tag 0; b: recv 1b from any tag 0; c: calc 10000; c requires b; }
)");
    REQUIRE(r.error.empty());
    CHECK(r.makespan == 120 + 10000 + 10);  // rank 1's message waits for the CPU after the calc
    CHECK(r.messages == 2);
}

TEST_CASE("matching: tags separate messages; early messages wait in the unexpected queue", "[simulator][matching]") {
    // Rank 1 posts its receives only after 1000 ns of computing: both messages
    // are unexpected, then matched by tag (tag 7 first although it came second).
    SimResult r = run_goal(R"(num_ranks 2
rank 0 { a: send 1b to 1 tag 5; b: send 1b to 1 tag 7; b irequires a; }
rank 1 { c: calc 1000; x: recv 1b from 0 tag 7; y: recv 1b from 0 tag 5; x requires c; y requires x; }
)");
    REQUIRE(r.error.empty());
    CHECK(r.unexpected == 2);
    CHECK(r.makespan == 1000 + 10 + 10);  // two receives of o each, from the unexpected queue
}

TEST_CASE("matching: rendezvous above S waits for the receive", "[simulator][matching]") {
    // 11 bytes > S = 8: request (o + L), clear-to-send (o + L), data (o + L), receive o + 10 O.
    SimResult r = run_goal("num_ranks 2\nrank 0 { s: send 11b to 1 tag 0; }\nrank 1 { r: recv 11b from 0 tag 0; }\n");
    REQUIRE(r.error.empty());
    CHECK(r.makespan == 10 + 100 + 10 + 100 + 10 + 100 + 30);
    // Posted late: the request waits unexpected until the receive at 1000.
    r = run_goal(
        "num_ranks 2\nrank 0 { s: send 11b to 1 tag 0; }\n"
        "rank 1 { c: calc 1000; r: recv 11b from 0 tag 0; r requires c; }\n");
    CHECK(r.unexpected == 1);
    CHECK(r.makespan == 1000 + 10 + 100 + 10 + 100 + 30);
}

TEST_CASE("matching: a receive nobody sends to is reported as a deadlock", "[simulator][matching]") {
    SimResult r = run_goal("num_ranks 2\nrank 0 { s: send 1b to 1 tag 3; }\nrank 1 { r: recv 1b from 0 tag 4; }\n");
    CHECK_THAT(r.error, Catch::Contains("deadlocked") && Catch::Contains("rank 1 waits for a message from rank 0 with tag 4"));
    r = run_goal("num_ranks 2\nrank 0 { s: send 100b to 1 tag 3; }\nrank 1 { }\n");  // rendezvous (S = 8)
    CHECK_THAT(r.error, Catch::Contains("rank 0 sends 100 bytes (rendezvous) to rank 1 with tag 3"));
    r = run_goal("num_ranks 2\nrank 0 { a: calc 1; b: calc 1; a requires b; b requires a; }\nrank 1 { }\n");
    CHECK_THAT(r.error, Catch::Contains("cycle"));
}

TEST_CASE("matching: irequires starts after the other op starts, requires after it ends", "[simulator][matching]") {
    SimResult a = run_goal("num_ranks 2\nrank 0 { a: calc 100; b: calc 50; b requires a; }\nrank 1 { }\n");
    SimResult b = run_goal("num_ranks 2\nrank 0 { a: calc 100; b: calc 50; b irequires a; }\nrank 1 { }\n");
    CHECK(a.makespan == 150);
    CHECK(b.makespan == 150);  // one CPU: the second calc still waits for the CPU
    SimResult c = run_goal(
        "num_ranks 2\nrank 0 { a: send 1b to 1 tag 0; b: calc 1000; b irequires a; }\n"
        "rank 1 { r: recv 1b from 0 tag 0; }\n");
    CHECK(c.makespan == 10 + 1000);  // the calc follows the send's o, not its completion
}

TEST_CASE("placement: ops on different CPUs and NICs of a rank overlap", "[simulator][matching][goal]") {
    // L=100 o=10 g=5, 1-byte messages. One CPU: the second send waits for o,
    // arrives at 10 + 110 and is received by 130. Two CPUs and NICs on both
    // ranks: both messages are received by 2o + L = 120.
    const char* one = "num_ranks 2\nrank 0 {\na: send 1b to 1\nb: send 1b to 1\n}\n"
                      "rank 1 {\nc: recv 1b from 0\nd: recv 1b from 0\n}\n";
    const char* two = "num_ranks 2\nrank 0 {\na: send 1b to 1 cpu 0 nic 0\nb: send 1b to 1 cpu 1 nic 1\n}\n"
                      "rank 1 {\nc: recv 1b from 0 cpu 0\nd: recv 1b from 0 cpu 1\n}\n";
    CHECK(run_goal(one).makespan == 130);
    CHECK(run_goal(two).makespan == 120);
}

TEST_CASE("matching: tag -1 receives any tag", "[simulator][matching][goal]") {
    SimResult r = run_goal("num_ranks 2\nrank 0 { a: send 1b to 1 tag 7; }\nrank 1 { b: recv 1b from 0 tag -1; }\n");
    CHECK(r.error.empty());
    CHECK(r.makespan == 120);
}
