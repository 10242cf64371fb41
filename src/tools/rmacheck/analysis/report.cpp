// Analysis driver and rendering (see report.h).
#include "tools/rmacheck/analysis/report.h"

#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "tools/rmacheck/sampling.h"
#include "tools/rmacheck/analysis/access_width.h"
#include "tools/rmacheck/analysis/symbols.h"
#include "tools/rmacheck/analysis/threads.h"

namespace rmacheck {

namespace {
std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Mode 1's faults recorded their first byte only (trace::kWidthFromInstruction): each gets the width
// of its instruction's memory operand, decoded once per instruction and direction; one byte where
// the code cannot be read or decoded. The rank's symbols are opened only when it has such a record.
template <typename Symbols>
void decode_fault_widths(RankTrace* rank, Symbols symbols) {
    std::map<std::pair<uint64_t, bool>, uint32_t> widths;
    for (Event& e : rank->events) {
        if (e.type != trace::Rec::local || e.size != trace::kWidthFromInstruction) continue;
        auto [it, fresh] = widths.try_emplace({e.site, e.write}, 1);
        if (fresh) {
            uint8_t code[16];
            const size_t n = symbols().code(e.site, code, sizeof code);
            if (uint32_t w = n ? access_width(code, n, e.site, e.write) : 0; w > 0 && w <= 64) it->second = w;
        }
        e.size = it->second;
    }
}
}  // namespace

std::string sampling_note(const std::vector<RankTrace>& traces) {
    uint64_t operations = 0, watched = 0;
    for (const auto& t : traces) operations += t.operations, watched += t.watched;
    if (watched == operations) return "";
    char share[96];
    std::snprintf(share, sizeof share, "%llu of %llu RMA operations (%.2f %%)",
                  static_cast<unsigned long long>(watched), static_cast<unsigned long long>(operations),
                  operations ? 100.0 * static_cast<double>(watched) / static_cast<double>(operations) : 0.0);
    return std::string("mode 1 watched the origin buffers of ") + share + ": " + sampling_rule() +
           "; the program's loads and stores of the others' buffers were not watched (conflicts between RMA "
           "operations were checked in all of them); run with --check-all to watch every one";
}

Analysis analyse(std::vector<RankTrace> traces) {
    Analysis out;
    out.traces = std::move(traces);
    std::set<std::string> notes;
    for (const auto& t : out.traces) {
        if (!t.error.empty()) out.errors.push_back(t.error);
        for (const auto& n : t.notes) notes.insert(n);
    }
    out.notes.assign(notes.begin(), notes.end());
    if (std::string n = sampling_note(out.traces); !n.empty()) out.notes.push_back(std::move(n));
    for (auto& n : thread_notes(out.traces)) out.notes.push_back(std::move(n));
    // A file without a usable header has no rank: it cannot take part.
    std::vector<RankTrace> usable;
    for (auto& t : out.traces)
        if (t.rank >= 0) usable.push_back(std::move(t));  // (a copy took a tenth of a long analysis)
    out.traces = std::move(usable);
    // Symbols are read only for ranks that need them: a fault's width, a finding's lines (reading
    // every library's ELF costs ~0.1 s a rank).
    std::vector<std::unique_ptr<OfflineSymbols>> symbols(out.traces.size());
    auto symbols_of = [&](size_t slot) -> OfflineSymbols& {
        auto& ptr = symbols[slot];
        if (!ptr) ptr = std::make_unique<OfflineSymbols>(out.traces[slot].modules);
        return *ptr;
    };
    for (size_t slot = 0; slot < out.traces.size(); ++slot)
        decode_fault_widths(&out.traces[slot], [&]() -> OfflineSymbols& { return symbols_of(slot); });
    Execution exec(out.traces);
    out.warnings = exec.warnings();
    out.findings = find_races(exec);
    auto locate = [&](const Side& s) {
        int slot = exec.slot_of_world(s.rank);
        if (slot < 0) return Located{hex(s.site), ""};
        auto& sym = symbols_of(static_cast<size_t>(slot));
        return Located{sym.where(s.site, !s.is_pc), sym.function(s.site, !s.is_pc)};
    };
    // Several instructions of one source line (a load and a store of `x++`) read as one finding.
    std::vector<Finding> merged;
    std::map<std::string, size_t> seen;
    for (const auto& f : out.findings) {
        Located a = locate(f.a), b = locate(f.b);
        Finding once = f;
        once.occurrences = 1;
        std::string key = format_finding(once, a, b);
        auto it = seen.find(key);
        if (it != seen.end()) {
            merged[it->second].occurrences += f.occurrences;
            continue;
        }
        seen.emplace(key, merged.size());
        merged.push_back(f);
        out.places.emplace_back(a, b);
    }
    out.findings = std::move(merged);
    return out;
}

Analysis analyse_dir(const std::string& dir) {
    std::string error;
    std::vector<RankTrace> traces = read_trace_dir(dir, &error);
    Analysis out = analyse(std::move(traces));
    if (!error.empty()) out.errors.insert(out.errors.begin(), error);
    return out;
}

std::string format_finding(const Finding& f, const Located& a, const Located& b) {
    auto side = [](const Side& s, const Located& l) {
        return std::string(to_string(s.kind)) + "(rank " + std::to_string(s.rank) +
               (s.thread > 0 ? " thread " + std::to_string(s.thread) : "") + ", " + l.where + ")";
    };
    std::string line = std::string("RACE ") + (f.remote ? "remote " : "local ") + side(f.a, a) + " vs " +
                       side(f.b, b) + " on win " + std::to_string(f.win);
    if (f.remote)
        line += " bytes [" + std::to_string(f.bytes.lo) + "," + std::to_string(f.bytes.hi) + ") of rank " +
                std::to_string(f.target_rank);
    else
        line += " origin buffer [" + hex(f.bytes.lo) + "," + hex(f.bytes.hi) + ") of rank " +
                std::to_string(f.target_rank);
    if (f.occurrences > 1) line += " (" + std::to_string(f.occurrences) + " times)";
    return line;
}

std::string explain_finding(const Finding& f) {
    std::string s;
    if (f.why == kDifferentBasicTypes)
        s = "accumulates with different basic datatypes (" + f.a.basic.str() + " and " + f.b.basic.str() + ")";
    else if (f.why == kNotOneBasicType)
        s = "accumulates whose target datatype is not of one basic type";
    else
        return "";
    s = "atomicity violation: " + s + " on the same location are not atomic (MPI-3.1 §11.7.1)";
    // One origin: the ordering that spares its accumulates of one type does not hold across types.
    if (f.a.rank == f.b.rank) s += "; nor ordered, though from one origin (ordering is per datatype, §11.7.2)";
    return s;
}

nlohmann::json to_json(const Analysis& analysis) {
    nlohmann::json findings = nlohmann::json::array();
    for (size_t i = 0; i < analysis.findings.size(); ++i) {
        const Finding& f = analysis.findings[i];
        auto side = [](const Side& s, const Located& l) {
            return nlohmann::json{{"kind", to_string(s.kind)}, {"rank", s.rank}, {"where", l.where},
                                  {"function", l.function}, {"address", hex(s.site)},
                                  {"address_is", s.is_pc ? "instruction" : "return address"}, {"op", s.op.str()},
                                  {"thread", s.thread},
                                  {"basic_type", s.basic.str()}};
        };
        findings.push_back({{"line", format_finding(f, analysis.places[i].first, analysis.places[i].second)},
                            {"scope", f.remote ? "across processes" : "within an epoch"},
                            {"a", side(f.a, analysis.places[i].first)},
                            {"b", side(f.b, analysis.places[i].second)},
                            {"window", f.win},
                            {"memory_of_rank", f.target_rank},
                            {"bytes", {f.bytes.lo, f.bytes.hi}},
                            {"bytes_are", f.remote ? "window offsets" : "addresses"},
                            {"occurrences", f.occurrences},
                            {"why", f.why},
                            {"explanation", explain_finding(f)}});
    }
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& t : analysis.traces) {
        ranks.push_back({{"rank", t.rank}, {"file", t.file}, {"events", t.events.size()}, {"rma_calls", t.rma_calls},
                         {"mode", t.mode}, {"finalized", t.finalized},
                         {"threads", t.threads.size()}});
    }
    return {{"races", analysis.findings.size()}, {"findings", findings},  {"ranks", ranks},
            {"errors", analysis.errors},         {"notes", analysis.notes}, {"warnings", analysis.warnings}};
}

}  // namespace rmacheck
