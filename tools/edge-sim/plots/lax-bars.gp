# A LAX table from repro-lax.sh as clustered bars, one cluster per
# workload row, one bar per policy column:
#   gnuplot -e "in='t.csv'; out='t.png'; ttl='...'; ylab='...'" lax-bars.gp
set datafile separator ','
set terminal pngcairo size 1280,520 font ',10'
set style data histogram
set style histogram clustered gap 2
set style fill solid 0.85 border -1
set grid ytics
set key outside right top vertical
set title ttl
set ylabel ylab
set yrange [0:*]
set output out
if (!exists('ncol')) ncol = 15
plot for [c=2:ncol] in using c:xtic(1) title columnheader(c)
