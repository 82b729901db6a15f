#!/bin/sh
# ptxas's verdict on a trivial module of each `.target` under every PTX ISA
# version from 1.0 to 9.0, compiled for -arch sm_90 (every target below
# sm_90 compiles for it), or for the target itself from sm_90 on: the
# lowest version that knows each target (Target::min_ptx;
# corpus/legality/target-versions.tsv). `.address_size 64` from PTX ISA 2.3
# on. Needs ptxas on PATH.
#   tools/legality/target_versions.sh > corpus/legality/target-versions.tsv
set -u
T="sm_10 sm_11 sm_12 sm_13 sm_20 sm_21 sm_30 sm_32 sm_35 sm_37 sm_50 sm_52 sm_53 sm_60 sm_61 sm_62 sm_70 sm_72 sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a sm_100 sm_100a sm_100f sm_103 sm_110 sm_120 sm_121"
V="1.0 1.1 1.2 1.3 1.4 1.5 2.0 2.1 2.2 2.3 3.0 3.1 3.2 4.0 4.1 4.2 4.3 5.0 6.0 6.1 6.2 6.3 6.4 6.5 7.0 7.1 7.2 7.3 7.4 7.5 7.6 7.7 7.8 8.0 8.1 8.2 8.3 8.4 8.5 8.6 8.7 8.8 9.0"
dir=$(mktemp -d)
printf '# target\tversion\tarch\tptxas\tfirst message\n'
printf '# %s\n' "$(ptxas --version | tail -1)"
for t in $T; do
  n=${t#sm_}; n=${n%a}; n=${n%f}
  if [ "$n" -ge 90 ]; then a=$t; else a=sm_90; fi
  for v in $V; do
    # `.address_size` needs PTX ISA 2.3 (ptxas says so): left out below it
    case $v in 1.*|2.0|2.1|2.2) as= ;; *) as='.address_size 64\n' ;; esac
    printf ".version %s\n.target %s\n$as.entry k()\n{\n\tret;\n}\n" "$v" "$t" > "$dir/k.ptx"
    ptxas -arch="$a" "$dir/k.ptx" -o "$dir/k.cubin" > "$dir/log" 2>&1
    rc=$?
    msg=$(head -1 "$dir/log" | sed "s#$dir/k.ptx#FILE#" | tr '\t' ' ')
    if [ $rc -eq 0 ]; then r=accept; else r=reject; fi
    rm -f "$dir/k.cubin"
    printf '%s\t%s\t%s\t%s\t%s\n' "$t" "$v" "$a" "$r" "$msg"
  done
done
rm -rf "$dir"
