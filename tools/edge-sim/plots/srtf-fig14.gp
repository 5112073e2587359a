# Fig. 14 of Pai et al. from repro-srtf.sh: STP per 2-program workload,
# one cluster per workload, one bar per policy column:
#   gnuplot -e "in='fig14.csv'; out='fig14.png'; ncol=7" srtf-fig14.gp
set datafile separator ','
set terminal pngcairo size 1800,560 font ',9'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set grid ytics
set key outside right top vertical
set title 'STP per workload (first+second kernel), 2-program ERCBench workloads'
set ylabel 'STP'
set yrange [0:2.2]
set xtics rotate by 90 right
set output out
plot for [c=2:ncol] in using c:xtic(1) title columnheader(c)
