// Mode 1's access widths (analysis/access_width.h): the memory operand of real x86-64 encodings.
#include "catch_compat.hpp"

#include <vector>

#include "tools/rmacheck/analysis/access_width.h"

using rmacheck::access_width;

namespace {
uint32_t width(std::vector<uint8_t> code, bool write) { return access_width(code.data(), code.size(), 0x401000, write); }
}  // namespace

TEST_CASE("a fault's instruction gives the access's width", "[rma]") {
    CHECK(width({0x89, 0x42, 0x0c}, true) == 4);              // mov %eax,0xc(%rdx): an int store
    CHECK(width({0x48, 0x89, 0x07}, true) == 8);              // mov %rax,(%rdi)
    CHECK(width({0x8b, 0x07}, false) == 4);                   // mov (%rdi),%eax: an int load
    CHECK(width({0xc6, 0x00, 0x01}, true) == 1);              // movb $1,(%rax)
    CHECK(width({0xf2, 0x0f, 0x11, 0x00}, true) == 8);        // movsd %xmm0,(%rax): a double
    CHECK(width({0xf3, 0x0f, 0x7f, 0x07}, true) == 16);       // movdqu %xmm0,(%rdi): a vector store
    CHECK(width({0xc5, 0xfe, 0x7f, 0x07}, true) == 32);       // vmovdqu %ymm0,(%rdi)
    CHECK(width({0x66, 0x89, 0x47, 0x02}, true) == 2);        // mov %ax,0x2(%rdi): a short
    CHECK(width({0xf3, 0x48, 0xa5}, true) == 8);              // rep movsq: its element
}

TEST_CASE("no memory operand, or no instruction, gives no width", "[rma]") {
    CHECK(width({0x90}, false) == 0);        // nop
    CHECK(width({0x48, 0x89, 0xc3}, true) == 0);  // mov %rax,%rbx
    CHECK(width({0x0f}, true) == 0);         // truncated
    CHECK(width({}, true) == 0);
}
