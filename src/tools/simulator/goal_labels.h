// The labels of one GOAL rank block and the ops they name. schedgen numbers
// its labels (l1, l2, ...): those go into a vector indexed by the number, so
// a 2 M-op schedule needs no string hashing; other labels use a hash map.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace jobsentry::sim {

class GoalLabels {
public:
    static constexpr std::uint32_t kMissing = 0xffffffffu;

    void clear() {
        std::fill(by_number_.begin(), by_number_.begin() + static_cast<std::ptrdiff_t>(used_), kMissing);
        used_ = 0;
        named_.clear();
    }
    // False when the label names an op already.
    bool define(std::string_view label, std::uint32_t op) {
        std::uint32_t n;
        if (!numbered(label, n)) return named_.emplace(std::string(label), op).second;
        if (n >= by_number_.size()) by_number_.resize(std::max<size_t>(n + 1, 2 * by_number_.size()), kMissing);
        if (by_number_[n] != kMissing) return false;
        by_number_[n] = op;
        used_ = std::max<size_t>(used_, n + 1);
        return true;
    }
    std::uint32_t find(std::string_view label) const {
        std::uint32_t n;
        if (numbered(label, n)) return n < by_number_.size() ? by_number_[n] : kMissing;
        auto it = named_.find(std::string(label));
        return it == named_.end() ? kMissing : it->second;
    }

private:
    // "l" and a number without leading zeros, below 2^24.
    static bool numbered(std::string_view s, std::uint32_t& n) {
        if (s.size() < 2 || s.size() > 8 || s[0] != 'l' || (s[1] == '0' && s.size() > 2)) return false;
        n = 0;
        for (size_t i = 1; i < s.size(); ++i) {
            if (s[i] < '0' || s[i] > '9') return false;
            n = n * 10 + static_cast<std::uint32_t>(s[i] - '0');
        }
        return true;
    }

    std::vector<std::uint32_t> by_number_;
    size_t used_ = 0;
    std::unordered_map<std::string, std::uint32_t> named_;
};

}  // namespace jobsentry::sim
