#!/usr/bin/env bash
# make test-mpi: the build with MPI=1 under mpirun, two ranks on this
# machine.
#   1. The protocol tests of the suite (the uci, ucci, cecp and limits
#      groups, which drive the engine through pipes as a GUI does) pass
#      against `mpirun -np 2 chuhan`.
#   2. A match over 2 ranks gives the same game count, results and moves as
#      in one process, and its PGN replays (`chuhan pgn check`).
#   2b. Training data over 2 ranks (chuhan datagen): both ranks play, rank
#      0 writes a file that holds the target, and a second run resumes;
#      datagen --pgn is refused with its reason.
#   3. A rank killed in the middle of a search ends the job with an error
#      and a move, not a hang; under --enable-recovery rank 0 plays on
#      without it and quits.  A rank stopped (SIGSTOP) is reported silent,
#      rank 0 plays on without it, and quit ends the job.
#
# Usage: tests/mpi/cluster-test.sh ENGINE TESTS (make test-mpi passes the
# MPI build's engine and test binary).  Output and logs in build/mpi-test.
# The packages are the Makefile's business (tests/deps.sh with MPI=1); the
# Makefile skips this test, with status 77, when they cannot be installed.
set -uo pipefail
cd "$(dirname "$0")/../.."

ENGINE=$(realpath "$1")
TESTS=$(realpath "$2")
OUT=$(mkdir -p build/mpi-test && realpath build/mpi-test)
say() { printf 'test-mpi: %s\n' "$*"; }
failures=0
fail() { say "FAILED: $*"; failures=$((failures + 1)); }

# mpirun as root needs its consent; --oversubscribe lets 2 ranks run on a
# machine with fewer cores, --bind-to none lets a rank's threads use every
# core (mpirun binds a rank to one core by default); shared-memory messages
# are copied through the shared segment (the single-copy mechanism, CMA,
# needs ptrace rights that containers often lack).
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN=(mpirun --oversubscribe --bind-to none -np 2)
WRAPPER=$OUT/chuhan-np2
printf '#!/bin/sh\nexec %s %s "$@"\n' "${MPIRUN[*]}" "$ENGINE" >"$WRAPPER"
chmod +x "$WRAPPER"

# ---- 1. the protocol tests ----
# Their time bounds doubled: mpirun takes a second or more to start the
# ranks, and rank 0 collects the others' answers before each move.
say "protocol tests against ${MPIRUN[*]} chuhan"
if CHUHAN_TEST_SLOW=${CHUHAN_TEST_SLOW:-2} CHUHAN_BIN=$WRAPPER CHUHAN_DATA=tests/data \
    "$TESTS" --groups=uci,ucci,cecp,limits,searchlimits,cli >"$OUT/protocol.log" 2>&1; then
    say "protocol tests: $(grep -o '[0-9]* test(s) run' "$OUT/protocol.log" | tail -1), all passed"
else
    grep -E '^\[  (FAILED|ERROR) ' "$OUT/protocol.log" | sed 's/^/    /'
    fail "protocol tests (log: $OUT/protocol.log)"
fi

# ---- 2. a match over 2 ranks ----
say "a match over 2 ranks against the same match in one process"
match_args=(--engine "cmd=$ENGINE" name=a --engine "cmd=$ENGINE" name=b --each depth=4 --games 12 --book-plies 8)
strip() { grep -v '^\[Date\|^\[Time' "$1" | sed -E 's/[0-9.]+s\}/}/g'; } # the times differ
"$ENGINE" match "${match_args[@]}" --pgn "$OUT/one.pgn" >"$OUT/one.txt" 2>&1 || fail "the match in one process"
timeout 300 "${MPIRUN[@]}" "$ENGINE" match "${match_args[@]}" --pgn "$OUT/two.pgn" >"$OUT/two.txt" 2>&1 ||
    fail "the match over 2 ranks (log: $OUT/two.txt)"
summary() { grep -E '^(Finished|a vs b|Endings)' "$1" | sed -E 's/ in [0-9.]+ s//'; }
if [ "$(summary "$OUT/one.txt")" != "$(summary "$OUT/two.txt")" ] || [ -z "$(summary "$OUT/two.txt")" ]; then
    fail "the totals differ: $(summary "$OUT/one.txt" | head -1) / $(summary "$OUT/two.txt" | head -1)"
elif ! grep -Eq '^Games played by the 2 ranks: [1-9][0-9]* [1-9]' "$OUT/two.txt"; then
    fail "both ranks should have played: $(grep '^Games played' "$OUT/two.txt")"
elif ! diff <(strip "$OUT/one.pgn") <(strip "$OUT/two.pgn") >"$OUT/pgn.diff"; then
    fail "the games differ from those of one process ($OUT/pgn.diff)"
elif ! "$ENGINE" pgn check "$OUT/two.pgn" | grep -q '^12 records, 12 replayed, 0 rejected'; then
    fail "the PGN does not replay: $("$ENGINE" pgn check "$OUT/two.pgn" 2>&1 | tail -1)"
else
    say "match: $(summary "$OUT/two.txt" | head -1); $(grep '^Games played' "$OUT/two.txt"); same games; PGN replays"
fi

# ---- 2b. training data over 2 ranks ----
# Both ranks play; rank 0 alone writes the file, which then holds at least
# the target, and a second run resumes from it.
say "datagen over 2 ranks"
DATA=$OUT/datagen.bin
rm -f "$DATA"
held() { "$ENGINE" datagen --out "$DATA" --positions 1 --threads 1 | sed -n 's/.*already holds \([0-9]*\) positions.*/\1/p'; }
if ! timeout 300 "${MPIRUN[@]}" "$ENGINE" datagen --out "$DATA" --positions 400 --nodes 300 --threads 1 --seed 7 \
    >"$OUT/datagen.txt" 2>&1; then
    fail "datagen over 2 ranks (log: $OUT/datagen.txt)"
elif ! grep -Eq '^datagen: rank 1: [1-9][0-9]* positions' "$OUT/datagen.txt"; then
    fail "rank 1 sent no positions: $(grep '^datagen: rank 1' "$OUT/datagen.txt")"
elif [ "$(held)" -lt 400 ] 2>/dev/null || [ -z "$(held)" ]; then
    fail "the file holds $(held) positions, not at least 400"
else
    first=$(held)
    timeout 300 "${MPIRUN[@]}" "$ENGINE" datagen --out "$DATA" --positions $((first + 300)) --nodes 300 --threads 1 \
        --seed 8 >"$OUT/datagen2.txt" 2>&1 || fail "datagen resumed over 2 ranks (log: $OUT/datagen2.txt)"
    if ! grep -q "^datagen: $DATA: $first positions there" "$OUT/datagen2.txt" || [ "$(held)" -lt $((first + 300)) ]; then
        fail "datagen did not resume from $first positions (log: $OUT/datagen2.txt)"
    else
        say "$(grep -m1 '^datagen: 2 ranks:' "$OUT/datagen.txt"); resumed from $first to $(held)"
    fi
fi
# datagen --pgn appends the games in file order from one process: over
# 2 ranks it is refused with the reason, and writes nothing
rm -f "$OUT/pgn.bin" "$OUT/pgn.bin.progress"
if timeout 120 "${MPIRUN[@]}" "$ENGINE" datagen --pgn tests/data/analyze-blunder.pgn --out "$OUT/pgn.bin" \
    --threads 1 >"$OUT/datagen-pgn.txt" 2>&1; then
    fail "datagen --pgn ran over 2 ranks (log: $OUT/datagen-pgn.txt)"
elif ! grep -q '^datagen: --pgn runs in one process' "$OUT/datagen-pgn.txt" || [ -e "$OUT/pgn.bin.progress" ]; then
    fail "datagen --pgn over 2 ranks: no reason, or a file written (log: $OUT/datagen-pgn.txt)"
else
    say "datagen --pgn over 2 ranks: refused"
fi

# ---- 3. a rank that dies or hangs ----
# session NAME SIGNAL [mpirun flags]: a go infinite, SIGNAL to rank 1 once
# it searches, then stop, a timed search, quit; the job must end within
# LIMIT seconds.  The output, timed, in $OUT/NAME.out.
session() {
    local name=$1 sig=$2
    shift 2
    local fifo=$OUT/$name.in log=$OUT/$name.out
    rm -f "$fifo" "$log"
    mkfifo "$fifo"
    mpirun "$@" "${MPIRUN[@]:1}" "$ENGINE" <"$fifo" >"$log" 2>"$OUT/$name.err" &
    local job=$!
    exec 3>"$fifo"
    trap '' PIPE
    printf 'uci\nsetoption name OwnBook value false\nposition startpos\ngo infinite\n' >&3
    local rank1="" i
    for i in $(seq 300); do
        grep -q '^info depth 5 ' "$log" && break
        sleep 0.1
    done
    # rank 1: the child of mpirun that Open MPI numbered 1
    for p in $(pgrep -P "$job"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && rank1=$p
    done
    if [ -z "$rank1" ]; then
        fail "$name: no rank 1 found, or no search (log: $log)"
        kill "$job" 2>/dev/null
    else
        kill -"$sig" "$rank1"
        sleep 2.5
        printf 'stop\n' >&3 2>/dev/null
        sleep 1.5
        printf 'go movetime 300\n' >&3 2>/dev/null
        sleep 1.5
        printf 'quit\n' >&3 2>/dev/null
    fi
    exec 3>&-
    local waited=0
    while kill -0 "$job" 2>/dev/null && [ $waited -lt "$LIMIT" ]; do
        sleep 1
        waited=$((waited + 1))
    done
    if kill -0 "$job" 2>/dev/null; then
        fail "$name: the job still runs $LIMIT s after the signal (a hang)"
        kill -9 "$job" 2>/dev/null
    fi
    wait "$job" 2>/dev/null
    STATUS=$?
    [ -n "$rank1" ] && kill -CONT "$rank1" 2>/dev/null && kill -9 "$rank1" 2>/dev/null
    rm -f "$fifo"
}
bestmoves() { grep -c '^bestmove [a-i][0-9][a-i][0-9]' "$1"; }

LIMIT=20
# Open MPI 4.1's mpirun, when a rank dies, stops passing on rank 0's input
# (rank 0 reads its end) and sends the others SIGTERM, then SIGKILL a
# second later; when it gets to each depends on the load.  Either way rank
# 0 must say why and play the move it has.
say "rank 1 killed in a search (mpirun ends the job)"
session killed KILL
why=$(grep -m1 -o -E 'cluster: (the MPI runtime is ending the job|rank 1 silent|rank 1 did not answer).*' "$OUT/killed.out")
if [ -z "$why" ]; then
    fail "killed: no message about rank 1 or the end of the job (log: $OUT/killed.out)"
elif [ "$(bestmoves "$OUT/killed.out")" -lt 1 ] || [ "$STATUS" = 0 ]; then
    fail "killed: no move, or a clean exit status ($STATUS) for a failed job"
else
    say "killed: '$why', a move, exit status $STATUS"
fi

say "rank 1 killed in a search (mpirun --enable-recovery: rank 0 plays on)"
session recovered KILL --enable-recovery
if ! grep -q 'cluster: rank 1 silent' "$OUT/recovered.out"; then
    fail "recovered: rank 1 not reported silent (log: $OUT/recovered.out)"
elif [ "$(bestmoves "$OUT/recovered.out")" -lt 2 ]; then
    fail "recovered: not both searches answered with a move (log: $OUT/recovered.out)"
else
    say "recovered: '$(grep -m1 -o 'cluster: rank 1 silent.*' "$OUT/recovered.out")', 2 moves, ended (status $STATUS)"
fi

say "rank 1 stopped (SIGSTOP) in a search"
session stopped STOP
if ! grep -q 'cluster: rank 1 silent' "$OUT/stopped.out"; then
    fail "stopped: rank 1 not reported silent (log: $OUT/stopped.out)"
elif [ "$(bestmoves "$OUT/stopped.out")" -lt 2 ]; then
    fail "stopped: not both searches answered with a move (log: $OUT/stopped.out)"
elif ! grep -q 'rank 1 did not answer the end of the job' "$OUT/stopped.err"; then
    fail "stopped: quit did not say why the job ends (log: $OUT/stopped.err)"
else
    say "stopped: '$(grep -m1 -o 'cluster: rank 1 silent.*' "$OUT/stopped.out")', 2 moves, quit ended the job"
fi

if [ $failures -gt 0 ]; then
    say "$failures FAILED"
    exit 1
fi
say "passed"
