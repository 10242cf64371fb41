// The command-line options of DetectionSettings, shared by `jobsentry watch`
// and `jobsentry supervise` so that both accept and check them alike.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "detection_settings.h"

namespace jobsentry {

void add_detection_options(boost::program_options::options_description& d, DetectionSettings& s);

// "" when every value is in range, otherwise the option, its value and what is accepted.
std::string check_detection_settings(const DetectionSettings& s);

// Parses args against desc without abbreviation guessing; on a bad value the
// error names the option and what it accepts (from its help text). Returns
// "" on success; *help is set when --help was given.
std::string parse_with(const boost::program_options::options_description& desc, const std::vector<std::string>& args,
                       bool* help, const std::string& see);

}  // namespace jobsentry
