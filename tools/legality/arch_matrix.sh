#!/bin/sh
# ptxas's verdict on a trivial module of each `.target` compiled for each
# `-arch` (the matrix conform check --target follows;
# corpus/legality/arch-matrix.tsv). Needs ptxas on PATH.
#   tools/legality/arch_matrix.sh > corpus/legality/arch-matrix.tsv
set -u
T="sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_100a sm_100f sm_101 sm_101a sm_103 sm_103a sm_103f sm_110 sm_110f sm_120 sm_120a sm_120f sm_121"
dir=$(mktemp -d)
printf '# target\tarch\tptxas\tfirst message\n'
printf '# %s\n' "$(ptxas --version | tail -1)"
for t in $T; do
  for a in $T; do
    printf '.version 9.0\n.target %s\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n' "$t" > "$dir/k.ptx"
    ptxas -arch="$a" "$dir/k.ptx" -o "$dir/k.cubin" > "$dir/log" 2>&1
    rc=$?
    msg=$(head -1 "$dir/log" | tr '\t' ' ')
    if [ $rc -eq 0 ]; then v=accept; else v=reject; fi
    rm -f "$dir/k.cubin"
    printf '%s\t%s\t%s\t%s\n' "$t" "$a" "$v" "$msg"
  done
done
rm -rf "$dir"
