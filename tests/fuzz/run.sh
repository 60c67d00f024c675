#!/bin/sh
# Run the libFuzzer targets built by `make fuzz`.
#
#   tests/fuzz/run.sh smoke BUILD SECONDS TARGET...
#       each target: replay its seeds (tests/fuzz/corpus/T) and regression
#       inputs (tests/fuzz/regress/T), then fuzz for SECONDS; fails on the
#       first crash, leak, sanitizer report, broken property or hang (an
#       input over 10 s).  `make fuzz-smoke` runs this for every target.
#   tests/fuzz/run.sh long TARGET [RUNS [BUILD [LIBFUZZER_FLAGS...]]]
#       fuzz one target for RUNS executions (default 10000000), e.g. with
#       -max_total_time=3600 or -fork=2 as well; new inputs go to
#       BUILD/corpus/T, crashes to BUILD/artifacts/T-*.
#   tests/fuzz/run.sh replay TARGET BUILD DIR...
#       run every input of the folders once through BUILD's binary: the
#       corpus of a long run in a fast build (make fuzz FUZZ_SANITIZE=
#       undefined FUZZ_OPT=-O2 BUILD_TAG=fast) replayed by the default
#       AddressSanitizer + UndefinedBehaviorSanitizer build.
#   tests/fuzz/run.sh campaign FAST CHECK RUNS JOBS TARGET[=BUILD]...
#       `make fuzz-long`: each target long in build FAST (or BUILD) for RUNS
#       executions, JOBS at a time, each job on a core of its own (logs:
#       FAST/long-T.log), then its corpus
#       replayed by build CHECK (FAST/replay-T.log); a table of executions,
#       seconds and results at the end; fails if any run or replay failed.
#
# A crash is reproduced with BUILD/fuzz-T FILE; once fixed, copy FILE to
# tests/fuzz/regress/T/ so that every run (and the test suite) replays it.
#
# Every binary runs in a scratch folder of its own (removed after it), with
# the paths it is given made absolute: a protocol input may name a file to
# write (the Debug Log File option), and millions of them would otherwise
# litter the working tree.
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)

# $1 as an absolute path (from the repository root).
abs() {
    case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$root/$1" ;;
    esac
}

# Run "$@" in a new scratch folder, then remove it; the command's status.
in_scratch() {
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/chuhan-fuzz.XXXXXX") || return 1
    (cd "$scratch" && "$@")
    rc=$?
    rm -rf "$scratch"
    return $rc
}

mode=${1:-}
[ -n "$mode" ] && shift

default_build() {
    ls -d build/fuzz-* 2>/dev/null | head -n 1
}

# libFuzzer flags shared by both modes, for target $1 in build $2.
# Inputs up to 4 kB; a protocol session up to 1 kB (some hundred commands):
# its cost grows with its length (each move a search), and long sessions
# are the soak's part.
flags() {
    dict=""
    [ -f "tests/fuzz/$1.dict" ] && dict="-dict=$root/tests/fuzz/$1.dict"
    mkdir -p "$2/corpus/$1" "$2/artifacts"
    case "$1" in
    uci | ucci | cecp) max=1024 ;;
    *) max=4096 ;;
    esac
    echo "-timeout=10 -rss_limit_mb=2560 -max_len=$max -print_final_stats=1 -artifact_prefix=$2/artifacts/$1- $dict"
}

# The build of a campaign's TARGET[=BUILD] $1: BUILD, else $2.
build_of() {
    case "$1" in
    *=*) printf '%s\n' "${1#*=}" ;;
    *) printf '%s\n' "$2" ;;
    esac
}

# The committed input folders of target $1 that exist (git keeps no empty one).
inputs_dirs() {
    for d in "tests/fuzz/corpus/$1" "tests/fuzz/regress/$1"; do
        [ -d "$d" ] && printf '%s\n' "$root/$d"
    done
}

# Leak checks stay on (libFuzzer's default); UBSan stops at the first error.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

case "$mode" in
smoke)
    build=$(abs "$1")
    seconds=$2
    shift 2
    total=0
    for t in "$@"; do
        bin="$build/fuzz-$t"
        log="$build/fuzz-$t.log"
        [ -x "$bin" ] || { echo "fuzz-smoke: $bin missing (make fuzz)" >&2; exit 1; }
        f=$(flags "$t" "$build")
        # the committed inputs once each
        inputs=$(find $(inputs_dirs "$t") -type f | sort)
        before=$(ls -A "$root")
        if [ -n "$inputs" ]; then
            # shellcheck disable=SC2086
            if ! in_scratch "$bin" $f $inputs >"$log" 2>&1; then
                tail -n 40 "$log"
                echo "fuzz-smoke: $t: a committed input fails (log: $log)" >&2
                exit 1
            fi
        fi
        # then fuzzing, from the seeds and what earlier runs found
        # shellcheck disable=SC2086
        if ! in_scratch "$bin" $f -max_total_time="$seconds" "$build/corpus/$t" $(inputs_dirs "$t") >"$log" 2>&1; then
            tail -n 60 "$log"
            echo "fuzz-smoke: $t: FAILED (log: $log; the input is in $build/artifacts/)" >&2
            exit 1
        fi
        # (a seed of the uci target sets a Debug Log File by a relative name)
        if [ "$(ls -A "$root")" != "$before" ]; then
            echo "fuzz-smoke: $t wrote into the working tree:" >&2
            ls -A "$root" | grep -vxF "$before" >&2
            exit 1
        fi
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz-smoke: $t: ${runs:-?} executions in ${seconds}s, no failure"
        total=$((total + ${runs:-0}))
    done
    echo "fuzz-smoke: all targets clean ($total executions)"
    ;;
long)
    t=${1:?target}
    runs=${2:-10000000}
    build=$(abs "${3:-$(default_build)}")
    [ $# -ge 3 ] && shift 3 || shift $#
    bin="$build/fuzz-$t"
    [ -x "$bin" ] || { echo "fuzz: $bin missing (make fuzz)" >&2; exit 1; }
    f=$(flags "$t" "$build")
    # shellcheck disable=SC2086
    in_scratch "$bin" $f -runs="$runs" "$@" "$build/corpus/$t" $(inputs_dirs "$t")
    ;;
replay)
    t=${1:?target}
    build=$(abs "${2:?build}")
    shift 2
    bin="$build/fuzz-$t"
    [ -x "$bin" ] || { echo "fuzz: $bin missing (make fuzz)" >&2; exit 1; }
    f=$(flags "$t" "$build")
    dirs=""
    for d in "$@"; do
        dirs="$dirs $(abs "$d")"
    done
    # -runs=0: the inputs once each, nothing new; the folders are not written
    # shellcheck disable=SC2086
    in_scratch "$bin" $f -runs=0 $dirs
    ;;
campaign)
    fast=${1:?fast build}
    check=${2:?checking build}
    runs=${3:?runs}
    jobs=${4:?jobs}
    shift 4
    for spec in "$@"; do
        t=${spec%%=*}
        for b in "$(build_of "$spec" "$fast")" "$check"; do
            [ -x "$b/fuzz-$t" ] || { echo "fuzz: $b/fuzz-$t missing (make fuzz)" >&2; exit 1; }
        done
    done
    echo "fuzz-long: $# targets, $runs executions each, $jobs at a time, in $fast (logs: $fast/long-T.log)"
    # Job k runs every jobs-th target from the k-th, one after another, on
    # core k where there are enough cores: the protocol targets' threads
    # hand each line and search to each other, which costs half as much
    # on one core as across two (no wake-up of another core, no TLB
    # shootdowns).  Each target: the long run, its time, then the replay.
    ncpu=$(nproc 2>/dev/null || echo 1)
    k=0
    while [ "$k" -lt "$jobs" ]; do
        pin=""
        [ "$jobs" -le "$ncpu" ] && command -v taskset >/dev/null 2>&1 && pin="taskset -c $k"
        (
            i=0
            for spec in "$@"; do
                t=${spec%%=*}
                if [ $((i % jobs)) = "$k" ]; then
                    start=$(date +%s)
                    b=$(build_of "$spec" "$fast")
                    $pin sh tests/fuzz/run.sh long "$t" "$runs" "$b" >"$fast/long-$t.log" 2>&1
                    rc=$?
                    end=$(date +%s)
                    $pin sh tests/fuzz/run.sh replay "$t" "$check" "$b/corpus/$t" >"$fast/replay-$t.log" 2>&1
                    echo "$rc $? $((end - start))" >"$fast/long-$t.status"
                    echo "fuzz-long: $t done (run status $rc, $((end - start)) s)"
                fi
                i=$((i + 1))
            done
        ) &
        k=$((k + 1))
    done
    wait
    fail=0
    printf '%-6s %12s %8s %8s %8s %8s  %s\n' target executions seconds exec/s corpus replayed result
    for spec in "$@"; do
        t=${spec%%=*}
        read -r rc replay secs <"$fast/long-$t.status" || { rc=1; replay=1; secs=0; }
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fast/long-$t.log")
        corpus=$(find "$(build_of "$spec" "$fast")/corpus/$t" -type f | wc -l)
        replayed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fast/replay-$t.log")
        result=""
        [ "$rc" = 0 ] || result="run FAILED (see $fast/long-$t.log, inputs in $fast/artifacts/)"
        [ "$replay" = 0 ] || result="${result:+$result; }replay by $check FAILED ($fast/replay-$t.log)"
        [ -n "$result" ] && fail=1
        result=${result:-clean}
        printf '%-6s %12s %8s %8s %8s %8s  %s\n' "$t" "${n:-?}" "$secs" "$(( ${n:-0} / (secs > 0 ? secs : 1) ))" \
            "$corpus" "${replayed:-?}" "$result"
    done
    exit $fail
    ;;
*)
    sed -n '2,/^set -u/p' "$0" | sed '$d' >&2
    exit 2
    ;;
esac
