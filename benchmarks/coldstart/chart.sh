#!/usr/bin/env bash
# The cold-start chart: p99 per window over the time since the process start, one line per variant (its median
# start: by the time to held, then to readiness), HTTP solid, order-to-consumer dashed, as SVG with gnuplot; below
# it, where the run made one, the step search: p99 per offered rate against each variant's last instance.
#
#   benchmarks/coldstart/chart.sh RUN_DIR OUTPUT.svg [P99_LIMIT_MS]
#
# RUN_DIR is a run's directory (benchmarks/coldstart/target/run-<timestamp>/): its starts.txt and windows-*.txt.
# run.sh calls it at the end of a run; run it again to redraw a run's chart.
set -euo pipefail
RUN=${1:?usage: chart.sh RUN_DIR OUTPUT.svg [P99_LIMIT_MS]}
OUT=${2:?usage: chart.sh RUN_DIR OUTPUT.svg [P99_LIMIT_MS]}
LIMIT=${3:-50}
command -v gnuplot >/dev/null || {
    echo "gnuplot is not installed (apt-get install gnuplot-nox)" >&2
    exit 1
}
RUN=$(cd "$RUN" && pwd)
[[ -s $RUN/starts.txt ]] || {
    echo "no starts in $RUN" >&2
    exit 1
}
declare -A LABEL=([plain17]="Java 17" [cds17]="Java 17 + AppCDS" [aot25]="JDK 25 + AOT cache" [plain25]="JDK 25")
declare -A COLOR=([plain17]="#1f77b4" [cds17]="#d62728" [aot25]="#2ca02c" [plain25]="#9467bd")
starts=$(awk '{ n[$1]++ } END { for (v in n) if (n[v] > max) max = n[v]; print max }' "$RUN/starts.txt")
plot=()
for v in plain17 cds17 aot25 plain25; do
    grep -q "^$v " "$RUN/starts.txt" || continue
    # the median start: by held time (never held last), then readiness
    r=$(awk -v v="$v" '$1 == v { print ($4 < 0 ? 1e12 : $4), $3, $2 }' "$RUN/starts.txt" | sort -g -k1,1 -k2,2 |
        awk '{ r[NR] = $3 } END { print r[int((NR + 1) / 2)] }')
    windows="$RUN/windows-$v-$r.txt"
    read -r rate window <<<"$(sed -n 's/^# .*rate=\([0-9.]*\) window_s=\([0-9.]*\).*/\1 \2/p' "$windows")"
    # one step per window, from its start to its end; the first step begins at readiness
    awk '!/^#/ { print $2 / 1000, $8, $10; last = $3 / 1000 " " $8 " " $10 } END { print last }' "$windows" \
        >"$RUN/chart-$v.dat"
    plot+=("'$RUN/chart-$v.dat' using 1:2 with steps lw 2 lc rgb '${COLOR[$v]}' title '${LABEL[$v]}: HTTP'")
    plot+=("'$RUN/chart-$v.dat' using 1:3 with steps lw 2 dt 2 lc rgb '${COLOR[$v]}' title '${LABEL[$v]}: order → consumer'")
done
steps=()
for v in plain17 cds17 aot25 plain25; do
    [[ -s $RUN/steps-$v.txt ]] || continue
    steps+=("'$RUN/steps-$v.txt' using 1:3 with linespoints lw 2 pt 7 lc rgb '${COLOR[$v]}' title '${LABEL[$v]}: HTTP'")
    steps+=("'$RUN/steps-$v.txt' using 1:4 with linespoints lw 2 dt 2 pt 6 lc rgb '${COLOR[$v]}' title '${LABEL[$v]}: order → consumer'")
done
rate=$(awk -v r="$rate" 'BEGIN { printf "%g", r }')
window=$(awk -v w="$window" 'BEGIN { printf "%g", w }')
gnuplot <<EOF
set terminal svg size 1000,$((${#steps[@]} > 0 ? 1120 : 560)) dynamic font 'sans,12' background '#ffffff'
set output '$OUT'
$( ((${#steps[@]} > 0)) && echo "set multiplot layout 2,1")
set title "p99 per ${window} s window, ${rate} orders/s from readiness on (each variant's median start of ${starts})"
set xlabel 'seconds since the process start (each line begins at readiness)'
set ylabel 'p99 (ms, log scale)'
set logscale y
set yrange [1:*]
set xrange [0:*]
set xtics 10
set grid ytics xtics lc rgb '#dddddd'
set key outside below maxrows 2 spacing 1.3 samplen 3
set arrow from graph 0, first $LIMIT to graph 1, first $LIMIT nohead lc rgb '#888888' dt 3
set label '${LIMIT} ms' at graph 0.01, first $LIMIT offset 0,0.6 tc rgb '#666666'
plot $(IFS=,; echo "${plot[*]}")
$( ((${#steps[@]} > 0)) && cat <<STEPS
set title "Step search after the load of each variant's last start: p99 per offered rate (the search stops at the first step that fails)"
set xlabel 'offered rate (orders/s, open loop)'
unset logscale x
set xrange [0:*]
set xtics auto
plot $(IFS=,; echo "${steps[*]}")
unset multiplot
STEPS
)
EOF
# the chart names no machine path
sed -i "s|$RUN/||g" "$OUT"
