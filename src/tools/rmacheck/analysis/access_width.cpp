// Capstone decoding of one instruction's memory operand (see access_width.h).
#include "tools/rmacheck/analysis/access_width.h"

#include <capstone/capstone.h>

namespace rmacheck {

uint32_t access_width(const uint8_t* code, size_t n, uint64_t pc, bool write) {
#if defined(__x86_64__)
    csh handle;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) return 0;
    cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
    cs_insn* insn = nullptr;
    uint32_t width = 0, any = 0;
    if (cs_disasm(handle, code, n, pc, 1, &insn) == 1 && insn->detail) {
        const cs_x86& x86 = insn->detail->x86;
        for (uint8_t i = 0; i < x86.op_count; ++i) {
            const cs_x86_op& op = x86.operands[i];
            if (op.type != X86_OP_MEM || op.size == 0) continue;
            if (!any) any = op.size;
            // Of two memory operands (movs), the one the fault was for: written or read.
            if (op.access & (write ? CS_AC_WRITE : CS_AC_READ)) {
                width = op.size;
                break;
            }
        }
    }
    if (insn) cs_free(insn, 1);
    cs_close(&handle);
    return width ? width : any;
#else
    (void)code, (void)n, (void)pc, (void)write;
    return 0;  // only x86-64 is decoded; the access stays one byte wide
#endif
}

}  // namespace rmacheck
