// Runs the analysis over a trace directory and renders its findings: one line
// per finding naming both accesses as file:line, and a JSON report.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/rmacheck/analysis/checker.h"

namespace rmacheck {

struct Located {
    std::string where, function;
};

struct Analysis {
    std::vector<RankTrace> traces;
    std::vector<Finding> findings;
    std::vector<std::pair<Located, Located>> places;  // per finding: a, b symbolised
    std::vector<std::string> errors;    // damaged or missing trace files (file and offset)
    std::vector<std::string> notes;     // what this run could not observe
    std::vector<std::string> warnings;  // matching problems
};

Analysis analyse(std::vector<RankTrace> traces);
// What mode 1's sampling left unwatched, over all ranks ("" when it watched every operation).
std::string sampling_note(const std::vector<RankTrace>& traces);
Analysis analyse_dir(const std::string& dir);

std::string format_finding(const Finding& f, const Located& a, const Located& b);
// The rule a finding breaks, as a sentence for its reader ("" when the line says it all): two accumulates
// whose basic types differ, with both types and the section of MPI-3.1.
std::string explain_finding(const Finding& f);
nlohmann::json to_json(const Analysis& analysis);

}  // namespace rmacheck
