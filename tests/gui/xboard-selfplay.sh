#!/usr/bin/env bash
# Real-client test: Debian's XBoard, under Xvfb, plays one whole game of
# xiangqi between two copies of Chuhan over the CECP (xboard) protocol, with
# XBoard's legality testing and claim verification on, and saves the game.
# Then the game is checked:
#   - it finished: a result other than "*", and no forfeit (time, illegal
#     move, false claim) in XBoard's termination;
#   - every move was legal: the coordinate moves the engines sent (from
#     XBoard's debug log) replay with `chuhan judge`, and match the moves of
#     the saved PGN one by one (their destination points);
#   - no false claim: a result claimed by an engine is what `chuhan judge
#     --rule cxa --repeats 3` rules on the final position, and the game did
#     not go on past a position where the rules had already ended it.
# A screenshot of the board at the end of the game is saved next to the PGN.
#
# Usage: tests/gui/xboard-selfplay.sh   (make test-gui)
# Environment: CHUHAN_BIN (engine, default ./chuhan), GUI_OUT (output folder,
# default build/gui-test), GUI_TC / GUI_INC (XBoard -tc/-inc, default 0:10
# and 0.1), GUI_INSTALL_TIMEOUT (seconds for apt-get, default 600),
# UPDATE_SCREENSHOT=1 (also copy the screenshot to tests/gui/xboard-xiangqi.png).
# Installs xboard, xvfb and imagemagick with apt-get when missing (as root).
# Exit status: 0 passed, 1 failed, 77 skipped (the packages cannot be installed).
set -euo pipefail
cd "$(dirname "$0")/../.."

ENGINE=$(realpath "${CHUHAN_BIN:-./chuhan}")
OUT=$(mkdir -p "${GUI_OUT:-build/gui-test}" && realpath "${GUI_OUT:-build/gui-test}")
TC=${GUI_TC:-0:10}
INC=${GUI_INC:-0.1}
XBOARD=$(command -v xboard || echo /usr/games/xboard)

say() { printf 'test-gui: %s\n' "$*"; }
fail() { say "FAILED: $*"; exit 1; }

[ -x "$ENGINE" ] || fail "no engine at $ENGINE (build it first: make)"

# ---- packages ----
missing=()
[ -x "$XBOARD" ] || missing+=(xboard)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v import >/dev/null 2>&1 || missing+=(imagemagick)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        say "SKIPPED: cannot install ${missing[*]} (not root, or no apt-get)"
        exit 77
    fi
    say "installing ${missing[*]}"
    limit=${GUI_INSTALL_TIMEOUT:-600}
    export DEBIAN_FRONTEND=noninteractive
    if ! timeout "$limit" apt-get install -y -q --no-install-recommends "${missing[@]}" >"$OUT/apt.log" 2>&1; then
        timeout "$limit" apt-get update -q >>"$OUT/apt.log" 2>&1 || true
        if ! timeout "$limit" apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$OUT/apt.log" 2>&1; then
            say "SKIPPED: could not install ${missing[*]} (see $OUT/apt.log)"
            exit 77
        fi
    fi
    XBOARD=$(command -v xboard || echo /usr/games/xboard)
fi

# ---- a display ----
n=90
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
xvfb_pid=$!
xboard_pid=""
cleanup() {
    if [ -n "$xboard_pid" ]; then kill "$xboard_pid" 2>/dev/null || true; fi
    kill "$xvfb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=":$n"
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
[ -e "/tmp/.X11-unix/X$n" ] || fail "Xvfb did not start (see $OUT/xvfb.log)"

# ---- the game ----
pgn="$OUT/game.pgn"
debug="$OUT/xboard.debug"
shot="$OUT/xboard-xiangqi.png"
rm -f "$pgn" "$debug" "$shot"
start=$(date +%s)
say "XBoard $("$XBOARD" -v 2>/dev/null | head -1 || true): Chuhan vs Chuhan, xiangqi, -tc $TC -inc $INC"
# -mg 1: a one-game match, then exit; -xexit: no popup at the end;
# -testClaims false: XBoard's own claim test knows only mate and stalemate as
# xiangqi wins and would forfeit a correct perpetual-check or chase claim;
# instead every claim is checked below against Chuhan's rules (chuhan judge).
# -delayBeforeQuit: time (ms) to photograph the final position; the rest is
# XBoard's own xiangqi theme (pieces and board).
# XBoard's settings file goes to the output folder: the user's own
# ~/.xboardrc stays untouched.
mkdir -p "$OUT/home"
HOME="$OUT/home" "$XBOARD" -variant xiangqi -fcp "$ENGINE" -scp "$ENGINE" -fd "$OUT" -sd "$OUT" \
    -settingsFile "$OUT/home/xboardrc" -saveSettingsFile "$OUT/home/xboardrc" \
    -mg 1 -sgf "$pgn" -xexit -tc "$TC" -inc "$INC" -xponder \
    -testLegality true -testClaims false -checkMates true \
    -debug -nameOfDebugFile "$debug" -delayBeforeQuit 3000 \
    -size Medium -soundProgram true \
    -pid "~~/themes/xiangqi" -trueColors true -useBoardTexture true -overrideLineGap 0 \
    -liteBackTextureFile "~~/themes/textures/xqboard-9x10.png" \
    -darkBackTextureFile "~~/themes/textures/xqboard-9x10.png" >"$OUT/xboard.log" 2>&1 &
xboard_pid=$!
limit=$((600 + start))
while kill -0 "$xboard_pid" 2>/dev/null; do
    if [ -s "$pgn" ] && grep -q '^\[Result' "$pgn" && [ ! -s "$shot" ]; then
        sleep 0.5
        import -window root -trim +repage "$shot" 2>>"$OUT/import.log" || true
    fi
    [ "$(date +%s)" -lt "$limit" ] || fail "the game did not end within 600 s"
    sleep 0.2
done
wait "$xboard_pid" || true
xboard_pid=""
secs=$(($(date +%s) - start))
[ -s "$pgn" ] || fail "XBoard saved no game (see $OUT/xboard.log)"
[ -s "$shot" ] || import -window root -trim +repage "$shot" 2>>"$OUT/import.log" || true

# ---- the checks ----
result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$pgn" | head -1)
movetext=$(sed '/^\[/d' "$pgn" | tr '\n' ' ')
termination=$(printf '%s' "$movetext" | grep -o '{[^}]*}[[:space:]]*\(1-0\|0-1\|1/2-1/2\|\*\)[[:space:]]*$' | sed 's/^{\([^}]*\)}.*/\1/' || true)
say "result $result {$termination} after $secs s"
if [ -z "$result" ] || [ "$result" = "*" ]; then fail "the game did not finish (result '$result')"; fi
if printf '%s' "$termination" | grep -qiE 'false|forfeit|illegal|time|flag|crash|disconnect|resign'; then
    fail "the game ended by '$termination'"
fi

# the moves of the PGN (SAN) and those the engines sent (coordinates)
san=$(printf '%s' "$movetext" | sed 's/{[^}]*}//g; s/([^)]*)//g' | tr ' ' '\n' \
    | grep -vE '^$|^[0-9]+\.+$|^(1-0|0-1|1/2-1/2|\*)$' || true)
coords=$(grep -oE '<(first |second): move [a-i][0-9][a-i][0-9]' "$debug" | awk '{print $NF}')
nsan=$(printf '%s\n' "$san" | grep -c . || true)
ncoord=$(printf '%s\n' "$coords" | grep -c . || true)
[ "$nsan" -gt 0 ] || fail "no moves in the PGN"
[ "$nsan" = "$ncoord" ] || fail "the PGN has $nsan moves, the engines sent $ncoord"
i=0
paste <(printf '%s\n' "$san") <(printf '%s\n' "$coords") | while read -r s c; do
    i=$((i + 1))
    dest=$(printf '%s' "$s" | sed 's/[+#!?]*$//' | grep -oE '[a-i][0-9]$' || true)
    [ "$dest" = "${c:2:2}" ] || { say "FAILED: move $i: PGN '$s' is not the engine's $c"; exit 1; }
done || exit 1

# every move legal, and the verdict of the rules at the end
judge() { "$ENGINE" judge --rule cxa --repeats 3 startpos "$@"; }
# shellcheck disable=SC2086
verdict=$(judge $coords 2>"$OUT/judge.err") || fail "a move does not replay: $(cat "$OUT/judge.err")"
rule_result=$(printf '%s\n' "$verdict" | sed -n 's/^result: //p')
rule_reason=$(printf '%s\n' "$verdict" | sed -n 's/^reason: //p')
# shellcheck disable=SC2046
before=$(judge $(printf '%s\n' "$coords" | sed '$d') | sed -n 's/^result: //p')
[ "$before" = none ] || fail "the game went on after the rules had ended it ($before before the last move)"
stm_red=$((ncoord % 2 == 0))
case "$rule_result" in
    win) rules_pgn=$([ $stm_red = 1 ] && echo 1-0 || echo 0-1) ;;
    loss) rules_pgn=$([ $stm_red = 1 ] && echo 0-1 || echo 1-0) ;;
    draw) rules_pgn=1/2-1/2 ;;
    *) rules_pgn=none ;;
esac
say "$ncoord plies, all legal; the rules say: $rule_result ($rule_reason)"

# claims by the engines: each must be what the rules say
claims=$(grep -oE '<(first |second): (1-0|0-1|1/2-1/2) \{[^}]*\}' "$debug" || true)
if [ -n "$claims" ]; then
    # XBoard pads the name: "<first : 1-0 {...}" but "<second: 1-0 {...}",
    # so the name and colon become one field before the split at blanks
    printf '%s\n' "$claims" | sed -E 's/^<(first|second) ?: /\1 /' | while read -r who claim rest; do
        [ "$claim" = "$rules_pgn" ] || { say "FAILED: false claim by $who: $claim $rest; the rules say $rule_result"; exit 1; }
        say "claim by $who: $claim $rest: confirmed by the rules"
    done || exit 1
    [ "$result" = "$rules_pgn" ] || fail "the PGN says $result, the engines claimed $rules_pgn"
else
    # XBoard ended the game itself (mate, or its own draw adjudication)
    printf '%s' "$termination" | grep -qi 'adjudication' || fail "the game ended without a claim or an adjudication"
    if [ "$rules_pgn" != none ] && [ "$rules_pgn" != "$result" ]; then
        fail "XBoard's result $result differs from the rules' $rules_pgn, and no engine claimed"
    fi
    say "XBoard adjudicated: $termination"
fi

if [ -s "$shot" ]; then
    say "screenshot $shot"
    if [ "${UPDATE_SCREENSHOT:-0}" = 1 ]; then
        cp "$shot" tests/gui/xboard-xiangqi.png
        say "copied to tests/gui/xboard-xiangqi.png"
    fi
else
    say "no screenshot (see $OUT/import.log)"
fi
say "passed: a whole game under XBoard, $ncoord plies, $result, $secs s"
