// libunwind's signal masking, skipped while this thread unwinds a stack sample.
//
// libunwind blocks every signal around each lock it takes (its register-rule
// cache, its memory pools): a signal handler that itself unwinds could
// otherwise deadlock on the lock. That is two to four sigprocmask (libunwind
// 1.6) or pthread_sigmask (1.8) system calls per frame: on a polling rank's
// ten-frame stack, half of a sample's system calls, and system calls are most
// of what a sample costs the job's node (docs/watch.md, "The cost of
// watching"). The supervisor and the node agent run no signal handler that
// unwinds (they take signals with sigtimedwait), so the masking protects
// nothing there.
//
// While an UnwindSignalMaskScope lives, calls to sigprocmask and
// pthread_sigmask made by this thread return 0 at once and change nothing;
// libunwind's own locks are still taken. The definitions of both functions in
// unwind_signal_mask.cpp interpose on libc's (the executable's symbols come
// first) and forward every other call to libc's. A scope is held only around
// libunwind's unwind of one sample, where the thread runs nothing else that
// masks signals: each masking is paired with its restore inside the scope, so
// no mask is ever set from a value the skipped call did not fill in.
#pragma once

namespace jobsentry {

class UnwindSignalMaskScope {
public:
    UnwindSignalMaskScope();
    ~UnwindSignalMaskScope();
    UnwindSignalMaskScope(const UnwindSignalMaskScope&) = delete;
    UnwindSignalMaskScope& operator=(const UnwindSignalMaskScope&) = delete;

private:
    bool previous_;
};

}  // namespace jobsentry
