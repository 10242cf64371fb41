// The command-line options of DetectionSettings, shared by `jobsentry watch`
// and `jobsentry supervise` so that both accept and check them alike.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "base/command_line.h"
#include "hang/watch/detection_settings.h"

namespace jobsentry {

void add_detection_options(boost::program_options::options_description& d, DetectionSettings& s);

// "" when every value is in range, otherwise the option, its value and what is accepted.
std::string check_detection_settings(const DetectionSettings& s);

}  // namespace jobsentry
