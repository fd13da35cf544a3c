#!/usr/bin/env bash
# Symbolizes N distinct instruction addresses of one -g binary with proflow's symbolizer
# (bench/symbolize/symbolize_tool), llvm-symbolizer-14 and eu-addr2line, and reports CPU time,
# throughput ratios and whether the answers are identical.
#
#   bench/symbolize/compare.sh BUILD_DIR BINARY [N] [WARM_PASSES]
#
# Cold = a fresh process answering every address once (includes opening and indexing the binary).
# Warm = the same addresses again in the same process: proflow's extra passes; for llvm-symbolizer
# the difference between feeding the list twice and once. CPU time (user+sys) is reported because
# wall time on a shared machine is noisy; wall time is printed too.
set -euo pipefail
build=${1:?build dir}; bin=${2:?binary}; n=${3:-5000}; passes=${4:-5}
tool=$build/bench/symbolize/symbolize_tool
for t in "$tool" llvm-symbolizer-14 eu-addr2line objdump; do
  command -v "$t" >/dev/null || { echo "missing: $t (Debian packages: llvm-14, elfutils, binutils)" >&2; exit 1; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# N distinct addresses inside .text, a fixed pseudo-random sample.
objdump -d --no-show-raw-insn --section=.text "$bin" | awk '/^ +[0-9a-f]+:/ {sub(":", "", $1); print "0x" $1}' |
  sort -u | shuf -n "$n" --random-source=<(yes proflow) > "$work/addrs"
n=$(wc -l < "$work/addrs")
cat "$work/addrs" "$work/addrs" > "$work/addrs2"

TIMEFORMAT='%R %U %S'
cpu() { awk '{printf "%.3f", $2 + $3}' "$1"; }
wall() { awk '{printf "%.3f", $1}' "$1"; }

{ time "$tool" --obj "$bin" --warm-passes "$passes" "$work/addrs" > "$work/ours" 2> "$work/ours.err"; } 2> "$work/t_ours"
{ time llvm-symbolizer-14 --obj="$bin" < "$work/addrs" > "$work/llvm"; } 2> "$work/t_llvm"
{ time llvm-symbolizer-14 --obj="$bin" < "$work/addrs2" > /dev/null; } 2> "$work/t_llvm2"
# eu-addr2line exits non-zero when some address has no answer: not an error here.
{ time xargs -a "$work/addrs" eu-addr2line -a -f -i -C -e "$bin" > "$work/eu" || true; } 2> "$work/t_eu"

ours_cold=$(sed -n 's/.*cold_s=\([0-9.]*\).*/\1/p' "$work/ours.err")
ours_warm=$(sed -n 's/.*warm_s=\([0-9.]*\).*/\1/p' "$work/ours.err")
llvm_cpu=$(cpu "$work/t_llvm"); llvm2_cpu=$(cpu "$work/t_llvm2")
llvm_warm=$(awk -v a="$llvm2_cpu" -v b="$llvm_cpu" 'BEGIN{d=a-b; if (d < 0.001) d=0.001; printf "%.3f", d}')

# Identical answers: proflow prints llvm-symbolizer's format, so compare address by address.
same=$(awk 'BEGIN{RS=""} FNR==NR {a[FNR]=$0; next} {if (a[FNR]==$0) s++} END{print s+0}' "$work/ours" "$work/llvm")
# eu-addr2line: innermost frame per address; its " inlined at ... in ..." suffix is dropped and
# "??:0" read as "??:0:0". Function names differ in demangler style ([clone .cold] vs (.cold)), so
# source locations and names are counted separately.
awk 'BEGIN{RS=""; FS="\n"} {print $1 "\t" $2}' "$work/llvm" > "$work/llvm_inner"
awk '/^0x/ {getline f; getline l; sub(/ inlined at .*/, "", f); if (l == "??:0") l = "??:0:0"; print f "\t" l}' \
  "$work/eu" > "$work/eu_inner"
eu_loc=$(paste "$work/llvm_inner" "$work/eu_inner" | awk -F'\t' '$2 == $4 {s++} END{print s+0}')
eu_fn=$(paste "$work/llvm_inner" "$work/eu_inner" | awk -F'\t' '$1 == $3 {s++} END{print s+0}')

printf 'binary %s (%s bytes), %d distinct addresses\n' "$bin" "$(stat -c %s "$bin")" "$n"
printf '%-22s %10s %10s %14s\n' tool cpu_s wall_s addresses/s
printf '%-22s %10s %10s %14.0f\n' "proflow cold" "$(cpu "$work/t_ours")" "$ours_cold" "$(awk -v n=$n -v t=$ours_cold 'BEGIN{print n/t}')"
printf '%-22s %10s %10s %14.0f\n' "proflow warm (1 pass)" "-" "$ours_warm" "$(awk -v n=$n -v t=$ours_warm 'BEGIN{print n/(t>0?t:1e-6)}')"
printf '%-22s %10s %10s %14.0f\n' "llvm-symbolizer cold" "$llvm_cpu" "$(wall "$work/t_llvm")" "$(awk -v n=$n -v t=$(wall "$work/t_llvm") 'BEGIN{print n/t}')"
printf '%-22s %10s %10s %14.0f\n' "llvm-symbolizer warm" "$llvm_warm" "-" "$(awk -v n=$n -v t=$llvm_warm 'BEGIN{print n/t}')"
printf '%-22s %10s %10s %14.0f\n' "eu-addr2line cold" "$(cpu "$work/t_eu")" "$(wall "$work/t_eu")" "$(awk -v n=$n -v t=$(wall "$work/t_eu") 'BEGIN{print n/t}')"
echo "cold CPU ratio llvm/proflow: $(awk -v a=$llvm_cpu -v b=$(cpu "$work/t_ours") 'BEGIN{printf "%.2f", a/b}') (proflow's includes its $passes warm passes)"
echo "warm ratio proflow/llvm (addresses per second): $(awk -v a=$llvm_warm -v b=$ours_warm 'BEGIN{printf "%.1f", a/(b>0?b:1e-6)}')x"
echo "identical to llvm-symbolizer (whole inline chain): $same / $n"
echo "eu-addr2line innermost file:line:column equal to llvm-symbolizer's: $eu_loc / $n; function name: $eu_fn / $n"
