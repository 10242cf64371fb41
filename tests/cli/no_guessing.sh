#!/usr/bin/env bash
# Every subcommand parses its command line alike (base/command_line.h): an
# abbreviated option name is refused with exit 2 and named, never guessed
# (--alp must not silently mean --alpha, --dur not --duration).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
expect_error_of watch "alp" --alp 0.01 -- true
expect_error_of supervise "alp" --job-id 1 --alp 0.01
expect_error_of agent "job-i" --job-i 1 --node-index 1
expect_error_of sample "cou" --cou 2 1
expect_error_of noise "dur" --dur 1s
expect_error_of noise-job "job-i" --job-i 1
expect_error_of rma-job "job-i" --job-i 1
expect_error_of rma-check "che" --che -- true
expect_error_of trace "out" --out x -- true
expect_error_of simulate "proc" --proc 8
expect_error_of loggp "rep" --rep 3
expect_error_of ckpt "mtb" advise --mtb 1h
echo "PASS: no subcommand guesses an abbreviated option"
