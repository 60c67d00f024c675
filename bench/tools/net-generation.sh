#!/usr/bin/env bash
# One generation of the net, end to end (eval/nets/README.md):
#   1. data:  self-play games played by the current default evaluation
#             (chuhan datagen), into the data folder;
#   2. train: a net started from the current default net (a warm start;
#             random weights when the default is the hand-written
#             evaluation), trained on this generation's data and every
#             earlier generation's still in the data folder;
#   3. gate:  a match of the new net against the current default, with an
#             SPRT; on H1 the net and its card are copied into eval/nets/.
# Every step resumes where it stopped: datagen appends to its target, the
# trainer continues from its checkpoint, a finished step is not redone, and
# the gate goes on from the games in its PGN (chuhan match --resume).
# The data never enters the repository: it lives in the user's cache.
set -euo pipefail

usage() {
    cat >&2 <<'EOF'
usage: bench/tools/net-generation.sh [options]
  --data-dir DIR    data and work folder (default $XDG_CACHE_HOME/chuhan, else ~/.cache/chuhan)
  --engine FILE     the chuhan binary (default ./chuhan)
  --positions N     self-play positions of this generation (default 4000000)
  --nodes N         nodes per move of the self-play searches (default 1000)
  --threads N       cores to use (default: every core)
  --epochs N        training epochs (default 5); --lr X (0.001 from the default net,
                    0.002 from random weights), --lr-decay X (0.9 an epoch), --lr-drop N (4)
  --gate LIMIT      the gate's limit per move for both engines (default nodes=60000;
                    tc=10+0.1 when the parent is the hand-written evaluation)
  --sprt WORDS      the gate's SPRT (default "elo0=0 elo1=10"; "elo0=50 elo1=100" against
                    the hand-written evaluation)
  --games N         most games of the gate (default 2000)
  --step data|train|gate   stop after this step
  --nets DIR        where accepted nets go (default eval/nets)
EOF
    exit 2
}

die() {
    echo "net-generation: $*" >&2
    exit 1
}

cd "$(dirname "$0")/../.."
DATA="${XDG_CACHE_HOME:-$HOME/.cache}/chuhan"
ENGINE=./chuhan
NETS=eval/nets
POSITIONS=4000000 NODES=1000 THREADS=$(nproc) EPOCHS=5 LR= LR_DECAY=0.9 LR_DROP=4 GATE= SPRT= GAMES=2000 STEP=gate
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "net-generation: $1 needs a value" >&2; usage; }
    case "$1" in
    --data-dir) DATA=$2 ;;
    --engine) ENGINE=$2 ;;
    --positions) POSITIONS=$2 ;;
    --nodes) NODES=$2 ;;
    --threads) THREADS=$2 ;;
    --epochs) EPOCHS=$2 ;;
    --lr) LR=$2 ;;
    --lr-decay) LR_DECAY=$2 ;;
    --lr-drop) LR_DROP=$2 ;;
    --gate) GATE=$2 ;;
    --sprt) SPRT=$2 ;;
    --games) GAMES=$2 ;;
    --step) STEP=$2 ;;
    --nets) NETS=$2 ;;
    *) echo "net-generation: unknown option $1" >&2; usage ;;
    esac
    shift 2
done
case "$STEP" in data | train | gate) ;; *) echo "net-generation: --step data, train or gate" >&2; usage ;; esac
for n in "$POSITIONS" "$NODES" "$THREADS" "$EPOCHS" "$LR_DROP" "$GAMES"; do
    [[ "$n" =~ ^[0-9]+$ ]] || die "not a count: '$n'"
done
[ -x "$ENGINE" ] || die "$ENGINE: no engine there (make builds ./chuhan)"

# The current default: the net built into the engine (eval/nnue/nnue_default.c
# names its file), or the hand-written evaluation when none is.
PARENT=$(sed -n 's/^#define NNUE_DEFAULT_FILE "\(.*\)"$/\1/p' eval/nnue/nnue_default.c 2>/dev/null || true)
[ -z "$PARENT" ] || [ -f "$PARENT" ] || die "the default net $PARENT is missing"
PARENT_NAME=$(basename "${PARENT:-hand-written}" .nnue)
# This generation: one past the highest in eval/nets (its work folder may
# be there already, from a run that stopped).
LAST=$( (ls "$NETS" 2>/dev/null; basename "${PARENT:-none}") | sed -n 's/^gen\([0-9][0-9]*\)\.nnue$/\1/p' | sort -n | tail -1)
GEN=$(( ${LAST:-0} + 1 ))
NAME=gen$GEN
WORK=$DATA/$NAME
mkdir -p "$WORK" || die "cannot make $WORK"
if [ -z "$PARENT" ]; then
    LR=${LR:-0.002}
    GATE=${GATE:-tc=10+0.1}
    SPRT=${SPRT:-elo0=50 elo1=100}
else
    LR=${LR:-0.001} # a warm start takes smaller steps (the recipe of gen2)
    GATE=${GATE:-nodes=60000}
    SPRT=${SPRT:-elo0=0 elo1=10}
fi
echo "net-generation: $NAME from $PARENT_NAME; work folder $WORK; $THREADS threads"

# 1. data, played by the default evaluation (the parent)
DATAFILE=$WORK/selfplay-n$NODES.bin
echo "net-generation: [1/3] data: $POSITIONS positions at $NODES nodes a move in $DATAFILE"
nice -n 19 "$ENGINE" datagen --out "$DATAFILE" --positions "$POSITIONS" --nodes "$NODES" --threads "$THREADS" \
    --seed "$GEN" --evalfile "$PARENT"
[ "$STEP" != data ] || exit 0

# 2. the net: this generation's data and every earlier one's still here,
# with the recorded games rescored into DATA/master (datagen --pgn) if any
NET=$WORK/$NAME.nnue
if [ -f "$NET" ] && [ -f "$NET.card" ] && [ "$NET.card" -nt "$NET.ckpt" ]; then
    echo "net-generation: [2/3] train: $NET is trained already"
else
    args=()
    files=0
    for f in "$DATA"/gen*/selfplay-*.bin "$DATA"/master/*.bin; do
        [ -f "$f" ] || continue
        args+=(--data "$f")
        files=$((files + 1))
    done
    if [ -f "$NET.ckpt" ]; then
        args+=(--resume)
    elif [ -n "$PARENT" ]; then
        args+=(--init "$PARENT")
    fi
    echo "net-generation: [2/3] train: $files data files, $EPOCHS epochs, from ${PARENT:-random weights}"
    nice -n 19 "$ENGINE" train "${args[@]}" --out "$NET" --epochs "$EPOCHS" --lr "$LR" --lr-decay "$LR_DECAY" --lr-drop "$LR_DROP" \
        --threads "$THREADS" --seed "$GEN" \
        --note "bench/tools/net-generation.sh: $NAME from $PARENT_NAME; datagen --nodes $NODES --positions $POSITIONS --seed $GEN"
fi
[ "$STEP" != train ] || exit 0

# 3. the gate: the new net against the default, same binary
echo "net-generation: [3/3] gate: $NAME against $PARENT_NAME at $GATE, SPRT $SPRT, at most $GAMES games"
LOG=$WORK/gate.log
# shellcheck disable=SC2086 # the SPRT's words are separate arguments
"$ENGINE" match --engine "cmd=$ENGINE" "name=$NAME" "option.EvalFile=$NET" \
    --engine "cmd=$ENGINE" "name=$PARENT_NAME" "option.EvalFile=$PARENT" \
    --each "$GATE" option.OwnBook=false option.Hash=16 option.Threads=1 \
    --games "$GAMES" --concurrency "$THREADS" --book-plies 10 --seed "$GEN" --sprt $SPRT \
    --resign movecount=4 score=700 --pgn "$WORK/gate.pgn" --resume --quiet | tee "$LOG"
if grep -q 'H1 accepted' "$LOG"; then
    cp "$NET" "$NETS/$NAME.nnue"
    { cat "$NET.card"; echo "gate         $GATE against $PARENT_NAME:"; grep -E "^($NAME vs |SPRT|Pentanomial|Endings)" "$LOG" | sed 's/^/             /'; } >"$NETS/$NAME.card"
    echo "net-generation: $NAME passed: $NETS/$NAME.nnue and its card; make it the default in eval/nnue/nnue_default.c,"
    echo "net-generation: add its row to eval/nets/README.md, confirm it at 10+0.1, and commit with the new Bench"
else
    echo "net-generation: $NAME did not pass its gate ($LOG); the default stays $PARENT_NAME"
fi
