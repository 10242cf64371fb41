#include "base/command_line.h"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace jobsentry {

int command_line_style() { return po::command_line_style::default_style & ~po::command_line_style::allow_guessing; }

std::string parse_with(const po::options_description& desc, const std::vector<std::string>& args, bool* help,
                       const std::string& see, const po::positional_options_description* positional) {
    try {
        po::variables_map vm;
        po::command_line_parser parser(args);
        parser.options(desc).style(command_line_style());
        if (positional) parser.positional(*positional);
        po::store(parser.run(), vm);
        *help = vm.count("help") > 0;
        if (*help) return {};
        po::notify(vm);
    } catch (const po::validation_error& err) {
        // Boost names the option but not what it accepts: add that from the table.
        std::string name = err.get_option_name();
        while (!name.empty() && name[0] == '-') name.erase(0, 1);
        const po::option_description* known = desc.find_nothrow(name, false);
        return std::string(err.what()) + (known ? "; accepted: " + known->description() : std::string());
    } catch (const po::error& err) {
        return std::string(err.what()) + " (see " + see + ")";
    }
    return {};
}

}  // namespace jobsentry
