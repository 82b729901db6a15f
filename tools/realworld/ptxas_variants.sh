#!/usr/bin/env bash
# On the GPU machine: ptxas 13.0's verdicts on `.target` and `.version`
# variants of PTX files, for tools/realworld/variants.py.
#
#   bash tools/realworld/ptxas_variants.sh PTX_TARBALL
#
# PTX_TARBALL (.tar.gz) holds res/ptx/<name>.<arch>.ptx. For each file whose
# arch is in $BASES, one variant per target of $TARGETS (the `.target` line
# replaced, ptxas run with -arch of that target) and one per version of
# $VERSIONS (the `.version` line replaced, -arch the file's own). Writes
# $OUT/var.tgz: var/<name>.<arch>.t.<target>.err, ...v.<version>.err and
# var/rc.txt (name, kind, value, ptxas's exit status). PTXAS_FLAGS (e.g. -O0,
# which leaves the verdict alone and saves time on large files) go to ptxas.
set -u
W=$(mktemp -d /tmp/cv.XXXX); tar xzf "$1" -C "$W"; cd "$W"/res/ptx
O=$OUT/var; mkdir -p "$O"
TARGETS=${TARGETS:-"sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_100a sm_100f sm_101a sm_103a sm_110a sm_120 sm_120a"}
VERSIONS=${VERSIONS:-"7.0 7.8 8.0 8.1 8.2 8.3 8.4 8.5 8.6 8.7 8.8"}
BASES=${BASES:-"sm_100a sm_90a sm_120a sm_103a"}
job() {
  f=$1; kind=$2; v=$3; b=$(basename "$f" .ptx); arch=${b##*.}
  n=$O/$b.$kind.$v
  if [ "$kind" = t ]; then sed "s/^\.target .*/.target $v/" "$f" > "$n.ptx"; a=$v
  else sed "s/^\.version .*/.version $v/" "$f" > "$n.ptx"; a=$arch; fi
  ptxas $PTXAS_FLAGS -arch="$a" "$n.ptx" -o /dev/null > "$n.err" 2>&1; echo "$b $kind $v $?"; rm "$n.ptx"
}
export -f job; export O; export PTXAS_FLAGS=${PTXAS_FLAGS:-}
for base in $BASES; do
  for f in *."$base".ptx; do
    [ -f "$f" ] || continue
    for t in $TARGETS; do echo "$f t $t"; done
    for v in $VERSIONS; do echo "$f v $v"; done
  done
done | xargs -P "$(nproc)" -n 3 bash -c 'job "$0" "$1" "$2"' > "$O/rc.txt"
cd "$OUT" && tar czf var.tgz var && rm -rf var
