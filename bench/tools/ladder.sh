#!/bin/sh
# The strength ladder behind the Elo-by-level table (README.md, Strength
# levels; how it was run: bench/RESULTS.md, The strength ladder): chuhan
# match between neighbouring Skill Levels, and the top one against full
# strength, every step GAMES games at NODES nodes a move (a level's own
# caps are lower below level 16), openings from the built-in book, both
# colours of each.  Quiet and low-priority: one game at a time.
#   sh bench/tools/ladder.sh [BINARY] [OUTDIR] [GAMES] [NODES] [LEVELS...]
# The result of each step is the last lines of OUTDIR/step-A-B.txt.
BIN=${1:-./chuhan}
OUT=${2:-ladder}
GAMES=${3:-200}
NODES=${4:-20000}
shift 4 2>/dev/null
LEVELS=${*:-0 4 8 12 16 20}
mkdir -p "$OUT"
prev=
for level in $LEVELS; do
    if [ -n "$prev" ]; then
        nice -n 19 "$BIN" match \
            --engine cmd="$BIN" name="level-$prev" option.OwnBook=false "option.Skill Level=$prev" \
            --engine cmd="$BIN" name="level-$level" option.OwnBook=false "option.Skill Level=$level" \
            --each nodes="$NODES" --games "$GAMES" --concurrency 1 --book-plies 8 --seed 20 \
            --resign movecount=4 score=900 --maxmoves 200 \
            --pgn "$OUT/step-$prev-$level.pgn" >"$OUT/step-$prev-$level.txt" 2>&1
    fi
    prev=$level
done
