#!/usr/bin/env bash
# Build the nvcc PTX corpus: compile corpus/nvcc/src/*.cu to PTX for several archs, check each
# PTX with ptxas, and pack the results.  Run from the repository root on a machine with CUDA 13:
#
#     OUT=/path/to/outdir tools/device/nvcc_corpus.sh
#
# Outputs (under $OUT):
#   nvcc_corpus_log.txt   tool versions, one "OK file arch" / "FAIL file arch (stage)" line per
#                         compile (plus the first 5 error lines of a failure), and a summary
#   nvcc_ptx.tar.gz       every produced .ptx file, as ptx/<name>.<arch>[.lineinfo].ptx
#   nvcc_logs.tar.gz      full nvcc/ptxas stderr of every job
# The loose ptx/ folder is removed after packing (so $OUT holds only a few files) unless
# KEEP_LOOSE=1.  Environment knobs: NVCC, PTXAS, JOBS (default 16), ARCHS, SRC, TIMEOUT.
# A failing compile never stops the script.

set -u -o pipefail

OUT=${OUT:-$PWD/nvcc_corpus_out}
SRC=${SRC:-corpus/nvcc/src}
NVCC=${NVCC:-nvcc}
PTXAS=${PTXAS:-ptxas}
JOBS=${JOBS:-16}
ARCHS=${ARCHS:-"sm_80 sm_90 sm_90a sm_100a"}
TIMEOUT=${TIMEOUT:-300}

if ! command -v "$NVCC" >/dev/null 2>&1; then
    for d in /usr/local/cuda/bin /usr/local/cuda-13*/bin /opt/cuda/bin; do
        if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
    done
fi

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PTXDIR="$OUT/ptx"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nvcc_corpus.XXXXXX")
LOGDIR="$WORK/logs"
STATDIR="$WORK/status"
rm -rf "$PTXDIR"
mkdir -p "$PTXDIR" "$LOGDIR" "$STATDIR"
LOG="$OUT/nvcc_corpus_log.txt"

{
    echo "# nvcc PTX corpus build  $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# host: $(uname -srm)"
    echo "## nvcc --version"
    "$NVCC" --version 2>&1 || echo "nvcc not found"
    echo "## ptxas --version"
    "$PTXAS" --version 2>&1 || echo "ptxas not found"
    echo
} > "$LOG"

# job list: <source> <arch> <variant>
JOBLIST="$WORK/jobs.txt"
: > "$JOBLIST"
for f in "$SRC"/*.cu; do
    [ -e "$f" ] || continue
    for a in $ARCHS; do echo "$f $a plain" >> "$JOBLIST"; done
    echo "$f sm_90 lineinfo" >> "$JOBLIST"
done

one_job() {
    local src=$1 arch=$2 variant=$3
    local base extra tag out log st
    base=$(basename "$src" .cu)
    if [ "$variant" = lineinfo ]; then
        extra="-lineinfo"; tag="$arch.lineinfo"
    else
        extra=""; tag="$arch"
    fi
    out="$PTXDIR/$base.$tag.ptx"
    log="$LOGDIR/$base.$tag"
    st="$STATDIR/$base.$tag"
    # shellcheck disable=SC2086
    if timeout "$TIMEOUT" "$NVCC" -std=c++17 -arch="$arch" $extra -ptx -o "$out" "$src" > "$log.nvcc.txt" 2>&1; then
        if timeout "$TIMEOUT" "$PTXAS" -arch="$arch" -o "$log.cubin" "$out" > "$log.ptxas.txt" 2>&1; then
            echo "OK $base.cu $tag" > "$st"
        else
            {
                echo "FAIL $base.cu $tag (ptxas)"
                { grep -i -E 'error|fatal' "$log.ptxas.txt" || cat "$log.ptxas.txt"; } | head -n 5 | sed 's/^/    /'
            } > "$st"
        fi
        rm -f "$log.cubin"
    else
        rm -f "$out"
        {
            echo "FAIL $base.cu $tag (nvcc)"
            { grep -i -E 'error|fatal' "$log.nvcc.txt" || cat "$log.nvcc.txt"; } | head -n 5 | sed 's/^/    /'
        } > "$st"
    fi
    # keep warnings visible too (nvcc prints them even on success)
    if grep -q -E 'warning( #|[[:space:]]*:)' "$log.nvcc.txt" 2>/dev/null; then
        echo "    (nvcc/ptxas warnings: $(grep -c -E 'warning( #|[[:space:]]*:)' "$log.nvcc.txt"); see nvcc_logs.tar.gz)" >> "$st"
    fi
    return 0
}
export -f one_job
export NVCC PTXAS PTXDIR LOGDIR STATDIR TIMEOUT

xargs -P "$JOBS" -L 1 bash -c 'one_job "$@" || true' _ < "$JOBLIST" || true

{
    echo "## per-file status"
    for s in $(ls "$STATDIR" | sort); do cat "$STATDIR/$s"; done
    echo
    echo "## summary (OK / FAIL per arch)"
    for a in $ARCHS sm_90.lineinfo; do
        ok=$(cat "$STATDIR"/* 2>/dev/null | grep -E "^OK .* $a\$" | wc -l)
        fail=$(cat "$STATDIR"/* 2>/dev/null | grep -E "^FAIL .* $a \(" | wc -l)
        printf '%-16s OK %3d  FAIL %3d\n' "$a" "$ok" "$fail"
    done
} >> "$LOG"

nptx=$(ls "$PTXDIR"/*.ptx 2>/dev/null | wc -l)
tar -czf "$OUT/nvcc_ptx.tar.gz" -C "$OUT" ptx
tar -czf "$OUT/nvcc_logs.tar.gz" -C "$WORK" logs
echo "packed $nptx .ptx files into $OUT/nvcc_ptx.tar.gz" >> "$LOG"
if [ "${KEEP_LOOSE:-0}" != 1 ]; then rm -rf "$PTXDIR"; fi
rm -rf "$WORK"

sed -n '/^## summary/,$p' "$LOG"
exit 0
