// The unit tests build with Catch2 v2 (Debian 12: catch2/catch.hpp) and v3
// (Debian 13: one header per part, Approx and the string matchers moved into
// namespaces, Contains renamed ContainsSubstring). Every test includes this.
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/catch_tostring.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <string>

using Catch::Approx;
namespace Catch {
inline Matchers::StringContainsMatcher Contains(const std::string& text, CaseSensitive cs = CaseSensitive::Yes) {
    return Matchers::ContainsSubstring(text, cs);
}
using Matchers::EndsWith;
using Matchers::Matches;
using Matchers::StartsWith;
}  // namespace Catch
#else
#include <catch2/catch.hpp>
#endif
