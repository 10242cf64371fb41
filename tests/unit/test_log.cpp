#include "catch_compat.hpp"

#include <sstream>

#include "base/log.h"

using namespace jobsentry;

TEST_CASE("log lines have one form: component, job, detail, level") {
    std::ostringstream out;
    Logger watch("watch");
    watch.set_stream(out);
    watch.info("started");
    watch.warning("slow");
    CHECK(out.str() == "jobsentry[watch]: started\njobsentry[watch]: warning: slow\n");

    std::ostringstream agent_out;
    Logger agent("agent", 412, Logger::Stamp::utc);
    agent.set_stream(agent_out);
    agent.set_detail("node n2");
    agent.error("leader gone");
    const std::string line = agent_out.str();
    // 2026-01-05T10:02:11Z: twenty characters and a space before the prefix.
    REQUIRE(line.size() > 21);
    CHECK(line[4] == '-');
    CHECK(line[10] == 'T');
    CHECK(line[19] == 'Z');
    CHECK(line.substr(21) == "jobsentry[agent job 412 node n2]: error: leader gone\n");
    CHECK(agent.prefix() == "jobsentry[agent job 412 node n2]: ");
}
