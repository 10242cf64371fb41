// The width of a load or store from its instruction: mode 1 catches an access by its page fault,
// which gives the faulting address and the instruction, not how many bytes it touches. The
// analysis decodes the instruction (Capstone) at its PC, read from the rank's ELF file, and takes
// its memory operand's size. Runs after the job, like symbolisation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rmacheck {

// The size in bytes of the memory operand of the x86-64 instruction at `code` (at most n bytes,
// the instruction's address `pc`) that a read (write = false) or a write makes; 0 when it cannot
// be decoded or has no memory operand. A string instruction (rep movs) gives its element's size.
uint32_t access_width(const uint8_t* code, size_t n, uint64_t pc, bool write);

}  // namespace rmacheck
