// Offline symbolisation of the addresses in a trace with libdw (elfutils):
// each rank's executable mappings were recorded at MPI_Init, so the ELF files
// are reported to libdwfl at the addresses they had in that process and line
// tables give file:line. Runs after the job; nothing is resolved at run time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/rmacheck/analysis/trace_reader.h"

struct Dwfl;

namespace rmacheck {

class OfflineSymbols {
public:
    explicit OfflineSymbols(const std::vector<Module>& modules);
    ~OfflineSymbols();
    OfflineSymbols(const OfflineSymbols&) = delete;
    OfflineSymbols& operator=(const OfflineSymbols&) = delete;

    // "file.c:88" (basename), else "module+0xOFF", else "0xADDR". A return
    // address is looked up one byte earlier so the call's own line is found.
    std::string where(uint64_t address, bool is_return_address);
    // The function name, or empty.
    std::string function(uint64_t address, bool is_return_address);
    // Up to n bytes of the code at `pc` as its ELF file holds them (the instruction the rank ran
    // there); how many were copied, 0 when no executable section of a reported file holds it.
    size_t code(uint64_t pc, uint8_t* out, size_t n);

private:
    Dwfl* dwfl_ = nullptr;
    std::vector<Module> modules_;
    std::map<uint64_t, std::string> cache_;
};

}  // namespace rmacheck
