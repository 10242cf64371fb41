// jobsentry-mpicc's LLVM pass plugin (libjobsentry-rmacheck-loops.so, given to
// clang with -fpass-plugin): loop summaries for precise mode. A load or store
// that walks memory in an innermost loop is checked once, before the loop, for
// the whole range it will touch, instead of once per iteration: the pass emits
// a call of __jobsentry_rma_range(lo, bytes, write) in the loop's preheader
// (with the access's source line) and marks the access "nosanitize", so that
// the AddressSanitizer pass, which runs after it, leaves it alone. The range
// is exact when the access's stride is at most its size, and the hull across
// gaps of up to 64 bytes otherwise (as the recording's own merging).
//
// Only where the range is certain and the order of records does not change
// what the analysis sees: the loop has a preheader, one exit at its latch and
// a trip count known on entry (SCEV); the access runs on every iteration (its
// block dominates the latch), is simple (not volatile or atomic) and its
// address is an affine recurrence of this loop with a constant, ascending stride; the
// loop makes no calls (no MPI call, no OpenMP synchronisation inside) and has
// no atomics or fences. Everything else keeps ASan's per-access check.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

using namespace llvm;

namespace {

constexpr int64_t kMaxGap = 64;  // bytes between one iteration's access and the next that the hull covers

// Whether the loop body may do anything that orders it against other threads or MPI.
bool has_calls_or_atomics(const Loop& loop) {
    for (const BasicBlock* block : loop.blocks())
        for (const Instruction& inst : *block) {
            if (isa<DbgInfoIntrinsic>(inst)) continue;
            if (const auto* intrinsic = dyn_cast<IntrinsicInst>(&inst)) {
                switch (intrinsic->getIntrinsicID()) {
                case Intrinsic::lifetime_start:
                case Intrinsic::lifetime_end:
                case Intrinsic::assume:
                case Intrinsic::experimental_noalias_scope_decl:
                    continue;
                default:  // arithmetic (fmuladd, vector reductions, ...): no memory, no ordering
                    if (!intrinsic->mayReadOrWriteMemory()) continue;
                    break;
                }
            }
            if (isa<CallBase>(inst) || isa<FenceInst>(inst) || inst.isAtomic()) return true;
        }
    return false;
}

// Whether a range's two expressions can be computed at `at` (LLVM 15 made the check a member).
bool expandable(SCEVExpander& expander, ScalarEvolution& se, const SCEV* low, const SCEV* bytes, Instruction* at) {
#if LLVM_VERSION_MAJOR >= 15
    (void)se;
    return expander.isSafeToExpandAt(low, at) && expander.isSafeToExpandAt(bytes, at);
#else
    (void)expander;
    return isSafeToExpandAt(low, at, se) && isSafeToExpandAt(bytes, at, se);
#endif
}

struct Access {
    Instruction* inst;
    Value* pointer;
    Type* type;
    bool write;
};

// Whether a loop's walk [low, low + bytes) can be checked before the loop around it: the outer loop
// is as certain as the inner one (preheader, one exit at its latch, trip count known on entry, no
// calls or atomics), enters the inner loop on every iteration, and the walk is the same range every
// time or moves by a constant step of at most its length plus the gap. Then low and bytes become
// the outer loop's range.
bool widen(Loop& inner, Loop& outer, ScalarEvolution& se, DominatorTree& dt, Type* intptr, const SCEV*& low,
           const SCEV*& bytes) {
    BasicBlock* preheader = outer.getLoopPreheader();
    BasicBlock* latch = outer.getLoopLatch();
    if (!preheader || !latch || outer.getExitingBlock() != latch) return false;
    if (!dt.dominates(inner.getLoopPreheader(), latch)) return false;
    const SCEV* taken = se.getBackedgeTakenCount(&outer);
    if (isa<SCEVCouldNotCompute>(taken) || has_calls_or_atomics(outer)) return false;
    if (!se.isLoopInvariant(bytes, &outer)) return false;
    if (se.isLoopInvariant(low, &outer)) return true;  // the same walk every time
    const auto* rows = dyn_cast<SCEVAddRecExpr>(low);
    if (!rows || rows->getLoop() != &outer || !rows->isAffine()) return false;
    const auto* step = dyn_cast<SCEVConstant>(rows->getStepRecurrence(se));
    const auto* length = dyn_cast<SCEVConstant>(bytes);
    if (!step || !length) return false;
    const int64_t stride = step->getAPInt().getSExtValue();
    const int64_t walked = length->getAPInt().getSExtValue();
    if (stride <= 0 || stride > walked + kMaxGap) return false;  // (descending walks: see summarise)
    const SCEV* iterations = se.getTruncateOrZeroExtend(taken, intptr);
    low = rows->getStart();
    bytes = se.getAddExpr(se.getMulExpr(iterations, se.getConstant(intptr, stride)), bytes);
    return true;
}

bool summarise(Loop& loop, ScalarEvolution& se, DominatorTree& dt, FunctionCallee range_hook) {
    BasicBlock* preheader = loop.getLoopPreheader();
    BasicBlock* latch = loop.getLoopLatch();
    if (!preheader || !latch || loop.getExitingBlock() != latch) return false;
    const SCEV* taken = se.getBackedgeTakenCount(&loop);
    if (isa<SCEVCouldNotCompute>(taken) || has_calls_or_atomics(loop)) return false;

    std::vector<Access> accesses;
    for (BasicBlock* block : loop.blocks()) {
        if (!dt.dominates(block, latch)) continue;
        for (Instruction& inst : *block) {
            if (auto* load = dyn_cast<LoadInst>(&inst); load && load->isSimple())
                accesses.push_back({load, load->getPointerOperand(), load->getType(), false});
            else if (auto* store = dyn_cast<StoreInst>(&inst); store && store->isSimple())
                accesses.push_back({store, store->getPointerOperand(), store->getValueOperand()->getType(), true});
        }
    }
    const DataLayout& layout = preheader->getModule()->getDataLayout();
    LLVMContext& context = preheader->getContext();
    Type* intptr = layout.getIntPtrType(context);
    SCEVExpander expander(se, layout, "jobsentry.range");
    bool changed = false;
    for (const Access& access : accesses) {
        const auto* walk = dyn_cast<SCEVAddRecExpr>(se.getSCEV(access.pointer));
        if (!walk || walk->getLoop() != &loop || !walk->isAffine()) continue;
        const auto* step = dyn_cast<SCEVConstant>(walk->getStepRecurrence(se));
        const TypeSize size_bits = layout.getTypeStoreSize(access.type);
        if (!step || size_bits.isScalable()) continue;
        const int64_t stride = step->getAPInt().getSExtValue();
        const int64_t size = static_cast<int64_t>(size_bits.getFixedValue());
        // Ascending walks only: a descending one would need its last address computed across the
        // pointer and trip-count types; it keeps the per-access check.
        if (stride <= 0 || stride - size > kMaxGap) continue;
        // [first, last] byte addresses of the walk's accesses; the range runs up to the last one's end.
        const SCEV* iterations = se.getTruncateOrZeroExtend(taken, intptr);
        const SCEV* span = se.getMulExpr(iterations, se.getConstant(intptr, stride));
        const SCEV* low = walk->getStart();
        const SCEV* bytes = se.getAddExpr(span, se.getConstant(intptr, size));
        // Out through the enclosing loops while the walk stays one range (rows of a matrix that
        // follow each other within the gap, or the same row again).
        Instruction* at = preheader->getTerminator();
        for (Loop* inner = &loop; Loop* outer = inner->getParentLoop(); inner = outer) {
            const SCEV *wider_low = low, *wider_bytes = bytes;
            if (!widen(*inner, *outer, se, dt, intptr, wider_low, wider_bytes)) break;
            Instruction* outside = outer->getLoopPreheader()->getTerminator();
            if (!expandable(expander, se, wider_low, wider_bytes, outside)) break;
            low = wider_low, bytes = wider_bytes, at = outside;
        }
        if (!expandable(expander, se, low, bytes, at)) continue;
        Value* low_value = expander.expandCodeFor(low, low->getType(), at);
        Value* bytes_value = expander.expandCodeFor(bytes, intptr, at);
        IRBuilder<> builder(at);
        builder.SetCurrentDebugLocation(access.inst->getDebugLoc());  // the finding names the access's line
        Value* address = builder.CreatePtrToInt(low_value, intptr);
        builder.CreateCall(range_hook, {address, bytes_value, builder.getInt32(access.write ? 1 : 0)});
        access.inst->setMetadata("nosanitize", MDNode::get(context, {}));
        changed = true;
    }
    return changed;
}

struct LoopSummaryPass : PassInfoMixin<LoopSummaryPass> {
    PreservedAnalyses run(Function& function, FunctionAnalysisManager& analyses) {
        // The plugin is only loaded by jobsentry-mpicc, whose compilations all run the ASan pass (clang 14
        // marks no function sanitize_address when -fsanitize reaches only the compiler proper).
        if (function.isDeclaration() || function.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
            return PreservedAnalyses::all();
        auto& loops = analyses.getResult<LoopAnalysis>(function);
        auto& se = analyses.getResult<ScalarEvolutionAnalysis>(function);
        auto& dt = analyses.getResult<DominatorTreeAnalysis>(function);
        Module& module = *function.getParent();
        LLVMContext& context = module.getContext();
        Type* intptr = module.getDataLayout().getIntPtrType(context);
        FunctionCallee hook = module.getOrInsertFunction("__jobsentry_rma_range", Type::getVoidTy(context), intptr,
                                                         intptr, Type::getInt32Ty(context));
        bool changed = false;
        for (Loop* loop : loops.getLoopsInPreorder())
            if (loop->isInnermost()) changed |= summarise(*loop, se, dt, hook);
        return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
    return {LLVM_PLUGIN_API_VERSION, "jobsentry-rmacheck-loops", "1", [](PassBuilder& builder) {
                // Before the sanitizers: clang registers them after the plugins' callbacks.
                builder.registerOptimizerLastEPCallback([](ModulePassManager& passes, OptimizationLevel level) {
                    if (level == OptimizationLevel::O0) return;
                    FunctionPassManager function_passes;
                    function_passes.addPass(LoopSimplifyPass());  // preheaders, which later passes may have merged away
                    function_passes.addPass(LoopSummaryPass());
                    passes.addPass(createModuleToFunctionPassAdaptor(std::move(function_passes)));
                });
            }};
}
