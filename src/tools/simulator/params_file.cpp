#include "tools/simulator/params_file.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace jobsentry::sim {
namespace {

constexpr const char* kAccepted = "accepted keys are L, o, g, G, O (ns; G and O ns per byte) and S (bytes)";

[[noreturn]] void refuse(const std::string& file, const std::string& what) {
    throw std::invalid_argument("--params " + file + ": " + what);
}

double number(const nlohmann::json& v, const std::string& file, const std::string& key) {
    if (!v.is_number())
        refuse(file, "\"" + key + "\" is " + std::string(v.type_name()) + "; accepted values are numbers 0..1e15");
    double x = v.get<double>();
    if (!std::isfinite(x) || x < 0 || x > 1e15) {
        std::ostringstream e;
        e << "\"" << key << "\" is " << v.dump() << "; accepted values are 0..1e15";
        refuse(file, e.str());
    }
    return x;
}

}  // namespace

LogGOPS parse_params_json(const std::string& text, const std::string& file, const LogGOPS& base) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e500
        refuse(file, std::string("not JSON (") + e.what() + "); accepted is one object, e.g. " +
                         "{\"L\": 300, \"o\": 200, \"g\": 250, \"G\": 0.1, \"O\": 0.05, \"S\": 65536}");
    }
    if (!j.is_object()) refuse(file, "is " + std::string(j.type_name()) + ", not an object; " + kAccepted);
    LogGOPS p = base;
    for (const auto& [key, v] : j.items()) {
        static const std::set<std::string> known{"L", "o", "g", "G", "O", "S"};
        if (!known.count(key)) refuse(file, "unknown key \"" + key.substr(0, 64) + "\"; " + kAccepted);
        const double x = number(v, file, key);
        if (key == "L") p.L = static_cast<Time>(std::llround(x));
        else if (key == "o") p.o = static_cast<Time>(std::llround(x));
        else if (key == "g") p.g = static_cast<Time>(std::llround(x));
        else if (key == "G") p.G = x;
        else if (key == "O") p.O = x;
        else if (key == "S") {
            if (x != std::floor(x)) refuse(file, "\"S\" is " + v.dump() + "; accepted values are whole bytes");
            p.S = static_cast<std::uint64_t>(x);
        }
    }
    return p;
}

LogGOPS read_params_file(const std::string& path, const LogGOPS& base) {
    std::ifstream in(path);
    if (!in) refuse(path, "cannot be read");
    constexpr std::streamsize kMaxBytes = 1 << 20;  // six numbers; far less in practice
    std::string text(kMaxBytes + 1, '\0');
    in.read(text.data(), kMaxBytes + 1);
    text.resize(static_cast<size_t>(in.gcount()));
    if (text.size() > static_cast<size_t>(kMaxBytes)) refuse(path, "is longer than 1 MiB; accepted is one small JSON object");
    return parse_params_json(text, path, base);
}

std::string params_json(const LogGOPS& p) {
    nlohmann::ordered_json j;
    j["L"] = p.L;
    j["o"] = p.o;
    j["g"] = p.g;
    j["G"] = p.G;
    j["O"] = p.O;
    return j.dump() + "\n";
}

}  // namespace jobsentry::sim
