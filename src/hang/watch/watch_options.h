// Options of `jobsentry watch`: one table (name, default, help) drives the
// parser and --help. Parsing is pure so that every rule is unit-tested.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hang/watch/detection_settings.h"

namespace jobsentry {

enum class HangAction { kill, report };

struct WatchOptions : DetectionSettings {
    HangAction action = HangAction::kill;
    std::string report = "jobsentry-report.json";
    int grace_ms = 3000;    // SIGTERM to SIGKILL when killing the command tree
    long attach = 0;        // > 0: watch this running process tree instead of launching a command
    std::vector<std::string> command;
};

struct WatchParse {
    WatchOptions options;
    bool help = false;
    std::string error;  // non-empty: what was wrong and what is accepted
};

// args: everything after "watch".
WatchParse parse_watch_options(const std::vector<std::string>& args);
std::string watch_help();

}  // namespace jobsentry
