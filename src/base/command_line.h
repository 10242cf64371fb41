// The one parser of every jobsentry subcommand's command line, on top of
// Boost.Program_options: no abbreviation guessing (--alp is not --alpha), and
// a bad value's error names the option and what it accepts.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/positional_options.hpp>

#include <string>
#include <vector>

namespace jobsentry {

// The style of every jobsentry command line: Boost's default without
// guessing abbreviated names (--alp is not --alpha).
int command_line_style();

// Parses args against desc without abbreviation guessing; on a bad value the
// error names the option and what it accepts (from its help text). Returns
// "" on success; *help is set when --help was given.
// positional: the options that bare arguments fill, if any.
std::string parse_with(const boost::program_options::options_description& desc, const std::vector<std::string>& args,
                       bool* help, const std::string& see,
                       const boost::program_options::positional_options_description* positional = nullptr);

}  // namespace jobsentry
