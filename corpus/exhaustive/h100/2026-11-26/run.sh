#!/bin/bash
# issue 19 item 2: before (HEAD) vs after, and vosen/ptx_tests, in one device run
L=/usr/local/nvidia/lib64/libcuda.so.1
E=.carry/exh
TIMEFORMAT="  wall %R s, user %U s, sys %S s"
nvidia-smi -L; nvidia-smi --query-gpu=driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader; nproc; lscpu | grep -i "model name"; date -u
x() { echo "== $*"; time "$@"; }
F=cvt.rn.f16.f32
x $E/conform-before exhaustive $F --impl cuda --libcuda $L -q --json $OUT/before.run1.json
x $E/conform-after exhaustive $F --impl cuda --libcuda $L -q --timings --json $OUT/$F.run1.json
x $E/conform-after exhaustive $F --impl cuda --libcuda $L -q --timings --json $OUT/$F.run2.json
x $E/ptx_tests -f '^cvt_rn_f16_f32$' $L
x $E/conform-after exhaustive $F --impl cuda --libcuda $L -q --timings --json $OUT/$F.run3.json
x $E/conform-before exhaustive $F --impl cuda --libcuda $L -q --json $OUT/before.run2.json
for G in cvt.rn.satfinite.e4m3x2.f16x2 cvt.rn.satfinite.relu.e5m2x2.f16x2 cvt.rn.f16x2.e4m3x2 cvt.rn.relu.f16x2.e5m2x2; do
  x $E/conform-after exhaustive $G --impl cuda --libcuda $L -q --timings
  x $E/conform-before exhaustive $G --impl cuda --libcuda $L -q
done
for G in cvt.rn.bf16.f32 cvt.rzi.s32.f32 cvt.f32.f16 cvt.rm.ftz.f16.f32 cvt.rna.satfinite.tf32.f32; do
  x $E/conform-after exhaustive $G --impl cuda --libcuda $L -q --max-report 2 --timings
done
x $E/conform-after exhaustive $F --impl cuda --libcuda $L -q --timings --host-memory pageable
x $E/conform-after exhaustive $F --impl cuda --libcuda $L -q --timings
