# Fig. 12 from repro-edge.sh's tables: gnuplot -e "dir='...'" fig12.gp
set datafile separator ','
set terminal pngcairo size 1200,520 font ',10'
set output dir.'/fig12.png'
set title "Fig. 12: event-warp scheduling latency, draining vs preemption (bars: average; whiskers: min..max)\nMEMC and IPSEC cannot preempt BP and BFS (register rule): they drain under both"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.85 border -1
set logscale y
set yrange [1:*]
set ylabel 'scheduling latency (cycles)'
set xtics rotate by -45 scale 0
set grid ytics
set key top left
lo(x) = x < 1 ? 1 : x
plot dir.'/fig12-summary.csv' skip 1 using 3:(lo($2)):4:xtic(1) title 'Draining', \
     '' skip 1 using 6:(lo($5)):7 title 'Preemption'
