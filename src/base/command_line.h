// The one parser of every jobsentry subcommand's command line, on top of
// Boost.Program_options: no abbreviation guessing (--alp is not --alpha), and
// a bad value's error names the option and what it accepts.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/positional_options.hpp>

#include <iostream>
#include <optional>
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

// The front's answer to a parsed command line: the help printed (exit 0), a
// usage error reported as "WHO: ERROR" (exit 2), or nothing when the command
// is to run. help_text is called only when the help is asked for.
template <class HelpText>
std::optional<int> answered(bool help, const std::string& error, HelpText&& help_text, const std::string& who) {
    if (help) {
        std::cout << help_text();
        return 0;
    }
    if (error.empty()) return std::nullopt;
    std::cerr << who << ": " << error << '\n';
    return 2;
}

}  // namespace jobsentry
