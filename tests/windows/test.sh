#!/usr/bin/env bash
# make test-windows: chuhan.exe (the portable x86-64 Windows build) under
# Wine, driven from Linux as a GUI on Windows would drive it.
#   1. The protocol tests of the suite (the uci, ucci and cecp groups:
#      handshakes, searches, pondering, bad input, over-long lines) pass
#      against `wine chuhan.exe`, their time bounds tripled (Wine starts a
#      process in about a second).
#   2. `chuhan.exe bench` searches exactly as many nodes as the Linux build
#      and as BENCH_NODES (bench/bench.h): the same search on both systems.
#   3. Game records in Big5 and GBK decode (code pages 950 and 936 in place
#      of iconv) to the same text and moves as on Linux.
#   4. --version names Windows; match, which starts child processes, is
#      refused with a message, not a crash.
#
# Usage: tests/windows/test.sh EXE LINUX_ENGINE TESTS (make test-windows
# passes them).  Logs in build/windows-test; Wine's prefix (its C: drive)
# is build/windows-test/wine, made on the first run (some 20 s).
set -uo pipefail
cd "$(dirname "$0")/../.."

EXE=$(realpath "$1")
LINUX=$(realpath "$2")
TESTS=$(realpath "$3")
OUT=$(mkdir -p build/windows-test && realpath build/windows-test)
say() { printf 'test-windows: %s\n' "$*"; }
failures=0
fail() { say "FAILED: $*"; failures=$((failures + 1)); }
start=$(date +%s)

# Quiet Wine, its own prefix, and no offer to install Mono or Gecko.
export WINEPREFIX=$OUT/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
WINE=(wine "$EXE")
WRAPPER=$OUT/chuhan-wine
printf '#!/bin/sh\nexec wine %s "$@"\n' "$EXE" >"$WRAPPER"
chmod +x "$WRAPPER"
if ! "${WINE[@]}" --version >"$OUT/version.txt" 2>"$OUT/wine-start.txt"; then
    cat "$OUT/version.txt" "$OUT/wine-start.txt"
    fail "chuhan.exe does not start under Wine"
    exit 1
fi
say "$(tr -d '\r' <"$OUT/version.txt") under $(wine --version 2>/dev/null)"

# One wineserver for the whole run.  The tests start a hundred Wine processes
# one after another; a server left to exit on its own (a few seconds after
# its last client) races the next one to start, which then dies at once with
# "wine client error: recvmsg: Connection reset by peer", failing whichever
# test it was.  A persistent server has no such window; it goes at exit.
WINESERVER=$(command -v wineserver || echo /usr/lib/wine/wineserver64)
"$WINESERVER" -w
"$WINESERVER" -p </dev/null >/dev/null 2>&1
trap '"$WINESERVER" -k 2>/dev/null' EXIT

# ---- 1. the protocol tests ----
say "protocol tests (uci, ucci, cecp groups) against wine chuhan.exe"
if CHUHAN_TEST_SLOW=${CHUHAN_TEST_SLOW:-3} CHUHAN_BIN=$WRAPPER CHUHAN_DATA=tests/data \
    "$TESTS" --groups=uci,ucci,cecp >"$OUT/protocol.log" 2>&1; then
    say "protocol tests: $(grep -o '[0-9]* test(s) run' "$OUT/protocol.log" | tail -1), all passed"
else
    grep -E '^\[  (FAILED|ERROR) ' "$OUT/protocol.log" | sed 's/^/    /'
    fail "protocol tests (log: $OUT/protocol.log)"
fi

# ---- 2. bench: the same nodes ----
expected=$(sed -n 's/^#define BENCH_NODES \([0-9]*\).*/\1/p' bench/bench.h)
nodes() { tr -d '\r' <"$1" | sed -n 's/^Nodes searched *: *\([0-9]*\).*/\1/p' | tail -1; }
"$LINUX" bench >"$OUT/bench-linux.txt" 2>&1
"${WINE[@]}" bench >"$OUT/bench-windows.txt" 2>&1
lin=$(nodes "$OUT/bench-linux.txt") win=$(nodes "$OUT/bench-windows.txt")
if [ -n "$win" ] && [ "$win" = "$lin" ] && [ "$win" = "$expected" ]; then
    say "bench: $win nodes on Windows, $lin on Linux, BENCH_NODES $expected ($(tr -d '\r' <"$OUT/bench-windows.txt" |
        sed -n 's/^Nodes\/second *: *//p') nodes/s under Wine)"
else
    fail "bench nodes: Windows '${win}', Linux '${lin}', BENCH_NODES $expected ($OUT/bench-*.txt)"
fi

# ---- 3. Big5 and GBK records ----
# The first games of the master games (Big5), and the same games in GBK
# (the Linux build writes them in simplified characters, iconv encodes).
zstd -dc tests/data/ccpd-master-games.pgn.zst 2>/dev/null | head -n 300 >"$OUT/big5.pgn"
"$LINUX" pgn convert --to chinese-simplified "$OUT/big5.pgn" 2>/dev/null | iconv -f UTF-8 -t GBK >"$OUT/gbk.pgn"
for enc in big5 gbk; do
    ok=1
    for to in chinese uci; do
        "$LINUX" pgn convert --to $to "$OUT/$enc.pgn" >"$OUT/$enc-$to-linux.txt" 2>"$OUT/$enc-$to-linux.err"
        (cd "$OUT" && wine "$EXE" pgn convert --to $to "$enc.pgn") 2>"$OUT/$enc-$to-windows.err" |
            tr -d '\r' >"$OUT/$enc-$to-windows.txt"
        if ! [ -s "$OUT/$enc-$to-linux.txt" ] || ! cmp -s "$OUT/$enc-$to-linux.txt" "$OUT/$enc-$to-windows.txt" ||
            [ "$(cat "$OUT/$enc-$to-linux.err")" != "$(tr -d '\r' <"$OUT/$enc-$to-windows.err")" ]; then
            ok=0
            fail "$enc records converted --to $to differ from Linux's ($OUT/$enc-$to-*.txt)"
        fi
    done
    [ $ok = 1 ] && say "$enc records: the same text and moves as on Linux ($(cat "$OUT/$enc-uci-linux.err"))"
done

# ---- 4. what Windows lacks, said ----
grep -q ', Windows)' "$OUT/version.txt" || fail "--version does not name Windows: $(cat "$OUT/version.txt")"
"${WINE[@]}" match --engine cmd=x --engine cmd=y --each depth=1 --games 2 >"$OUT/match.txt" 2>&1
status=$?
if [ $status = 2 ] && grep -q 'not available in the Windows build' "$OUT/match.txt"; then
    say "match refused: $(tr -d '\r' <"$OUT/match.txt" | head -1 | cut -c1-90)..."
else
    fail "match on Windows: status $status, $(head -2 "$OUT/match.txt")"
fi

if [ $failures = 0 ]; then
    say "all passed in $(($(date +%s) - start)) s"
else
    say "$failures failed in $(($(date +%s) - start)) s"
fi
[ $failures = 0 ]
