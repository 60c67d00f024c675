#!/usr/bin/env bash
# make test-arm64: the static AArch64 build (make TARGET=linux-arm64) under
# QEMU's user-mode emulator, as an Android GUI or a Raspberry Pi runs it.
#   1. The binary is static (no program interpreter: Android has no glibc)
#      and --version names armv8-a.
#   2. Perft of every reference position (tests/data/perft.txt) at each
#      depth up to 50 million leaves: exact.
#   3. bench searches exactly as many nodes as the x86-64 build and as
#      BENCH_NODES (bench/bench.h), with the NEON kernels.
#   4. The arm64 test suite under QEMU, the groups of the arithmetic that
#      differs by architecture: bitboards, positions, move generation,
#      rules, the net (every kernel against the plain one, bit for bit) and
#      its files, the search.  (Not the groups that read Big5 or GBK
#      records: the static C library has no iconv modules for them; nor
#      util, whose spawn of a missing program QEMU reports differently.)
#   5. The protocol tests of the x86-64 suite (uci, ucci and cecp groups)
#      against the arm64 engine, their time bounds tripled.
#   6. A match, itself run by the arm64 build, between two arm64 engines,
#      one speaking UCI and one UCCI: both games end by the rules (mate,
#      repetition, the 60-move rule), and the x86-64 build replays every
#      move of the saved games as legal.
#
# Usage: tests/arm64/test.sh ARM64_ENGINE ARM64_TESTS X86_ENGINE X86_TESTS
# (make test-arm64 passes them).  Logs in build/arm64-test.
set -uo pipefail
cd "$(dirname "$0")/../.."

ARM=$(realpath "$1")
ARM_TESTS=$(realpath "$2")
X86=$(realpath "$3")
X86_TESTS=$(realpath "$4")
OUT=$(mkdir -p build/arm64-test && realpath build/arm64-test)
say() { printf 'test-arm64: %s\n' "$*"; }
failures=0
fail() { say "FAILED: $*"; failures=$((failures + 1)); }
start=$(date +%s)

QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
# The engine as a program other programs start: the tests and the match
# run it by a path (no binfmt_misc here to start AArch64 files directly).
WRAPPER=$OUT/chuhan-arm64
printf '#!/bin/sh\nexec %s %s "$@"\n' "$QEMU" "$ARM" >"$WRAPPER"
chmod +x "$WRAPPER"

# ---- 1. static, and what it says it is ----
if ! "$QEMU" "$ARM" --version >"$OUT/version.txt" 2>&1; then
    cat "$OUT/version.txt"
    fail "the arm64 build does not start under $QEMU"
    exit 1
fi
say "$(cat "$OUT/version.txt") under $("$QEMU" --version | head -1)"
grep -q '(armv8-a, Linux)$' "$OUT/version.txt" || fail "--version does not name armv8-a: $(cat "$OUT/version.txt")"
if aarch64-linux-gnu-readelf -lW "$ARM" >"$OUT/readelf.txt" 2>&1; then
    if grep -q 'INTERP' "$OUT/readelf.txt" || ! grep -q 'AArch64' <(aarch64-linux-gnu-readelf -h "$ARM"); then
        fail "not a static AArch64 executable ($OUT/readelf.txt)"
    else
        say "static AArch64 executable, $(stat -c %s "$ARM") bytes"
    fi
else
    fail "aarch64-linux-gnu-readelf cannot read it ($OUT/readelf.txt)"
fi

# ---- 2. perft ----
if "$QEMU" "$ARM" perft --suite tests/data/perft.txt --max-nodes 50000000 >"$OUT/perft.txt" 2>&1 &&
    grep -q '^all match: 0 mismatches' "$OUT/perft.txt"; then
    say "perft: $(grep -c '^ok ' "$OUT/perft.txt") counts of $(grep -c '^[^#]' tests/data/perft.txt) positions exact"
else
    grep -v '^ok ' "$OUT/perft.txt" | head -5
    fail "perft ($OUT/perft.txt)"
fi

# ---- 3. bench: the same nodes ----
expected=$(sed -n 's/^#define BENCH_NODES \([0-9]*\).*/\1/p' bench/bench.h)
field() { sed -n "s/^$1 *: *\\([^ ]*\\).*/\\1/p" "$2" | tail -1; }
"$X86" bench >"$OUT/bench-x86-64.txt" 2>&1
"$QEMU" "$ARM" bench >"$OUT/bench-arm64.txt" 2>&1
x86=$(field 'Nodes searched' "$OUT/bench-x86-64.txt") arm=$(field 'Nodes searched' "$OUT/bench-arm64.txt")
kernels=$(field 'Net kernels' "$OUT/bench-arm64.txt")
if [ -n "$arm" ] && [ "$arm" = "$x86" ] && [ "$arm" = "$expected" ] && [ "$kernels" = neon ]; then
    say "bench: $arm nodes on arm64 ($kernels kernels), $x86 on x86-64, BENCH_NODES $expected;" \
        "$(field 'Nodes\/CPU second' "$OUT/bench-arm64.txt") nodes per CPU second under QEMU," \
        "$(field 'Nodes\/CPU second' "$OUT/bench-x86-64.txt") native"
else
    fail "bench: arm64 '$arm' nodes ($kernels kernels), x86-64 '$x86', BENCH_NODES $expected ($OUT/bench-*.txt)"
fi

# ---- 4. the arm64 test suite ----
groups=bitboard,position,movegen,rules,nnue,nnuefile,search
if CHUHAN_TEST_SLOW=${CHUHAN_TEST_SLOW:-3} CHUHAN_BIN=$WRAPPER CHUHAN_DATA=tests/data \
    "$QEMU" "$ARM_TESTS" --groups=$groups >"$OUT/suite.log" 2>&1; then
    say "arm64 test suite ($groups): $(grep -o '[0-9]* test(s) run' "$OUT/suite.log" | tail -1), all passed"
else
    grep -E '^\[  (FAILED|ERROR) ' "$OUT/suite.log" | sed 's/^/    /'
    fail "arm64 test suite (log: $OUT/suite.log)"
fi

# ---- 5. the protocol tests ----
if CHUHAN_TEST_SLOW=${CHUHAN_TEST_SLOW:-3} CHUHAN_BIN=$WRAPPER CHUHAN_DATA=tests/data \
    "$X86_TESTS" --groups=uci,ucci,cecp >"$OUT/protocol.log" 2>&1; then
    say "protocol tests against the arm64 engine: $(grep -o '[0-9]* test(s) run' "$OUT/protocol.log" | tail -1), all passed"
else
    grep -E '^\[  (FAILED|ERROR) ' "$OUT/protocol.log" | sed 's/^/    /'
    fail "protocol tests (log: $OUT/protocol.log)"
fi

# ---- 6. a match to the end ----
rm -f "$OUT/match.pgn"
"$QEMU" "$ARM" match --engine cmd="$WRAPPER" name=arm64-uci option.OwnBook=false \
    --engine cmd="$WRAPPER" name=arm64-ucci proto=ucci option.usebook=false \
    --each depth=5 --games 2 --pgn "$OUT/match.pgn" >"$OUT/match.txt" 2>&1
status=$?
results=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$OUT/match.pgn" 2>/dev/null)
ends=$(sed -n 's/^\[TerminationDetails "\(.*\)"\]/\1/p' "$OUT/match.pgn" 2>/dev/null | sort | uniq -c | sed 's/^ *//' |
    paste -sd, | sed 's/,/, /g')
"$X86" pgn convert --to uci "$OUT/match.pgn" >"$OUT/match-replayed.txt" 2>"$OUT/match-replay.txt"
replayed=$(tail -1 "$OUT/match-replay.txt")
# (a perpetual check's loss is a rules infraction too, but by the rules)
bad='Termination "(time forfeit|abandoned|stalled connection)"|TerminationDetails "(illegal move|no move)'
if [ $status = 0 ] && [ "$results" = 2 ] && ! grep -qE "$bad" "$OUT/match.pgn" &&
    [ "$replayed" = "2 records, 2 replayed, 0 rejected" ]; then
    say "match of two arm64 engines (UCI and UCCI, depth 5): 2 games ended by the rules ($ends); every move legal"
else
    tail -3 "$OUT/match.txt"
    fail "match: status $status, $results results, endings '$ends', replay '$replayed' ($OUT/match.*)"
fi

if [ $failures = 0 ]; then
    say "all passed in $(($(date +%s) - start)) s"
else
    say "$failures failed in $(($(date +%s) - start)) s"
fi
[ $failures = 0 ]
