# Sourced: the sanitizer options under which build-asan/'s tests must pass.
# Any report ends the process with an abort, so the test that ran it fails.
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=${LSAN_OPTIONS:-}
