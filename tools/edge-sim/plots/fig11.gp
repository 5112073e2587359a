# Fig. 11b/11c from repro-edge.sh's tables: gnuplot -e "dir='...'" fig11.gp
set datafile separator ','
set terminal pngcairo size 960,480 font ',10'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set grid ytics

set output dir.'/fig11c.png'
set title "Fig. 11c: mean warp preemption latency per flushing optimisation\n(edge-sim, mean over CONV MM BP BFS; crosses: the paper's baseline and all-on values)"
set logscale y
set yrange [10:20000]
set ylabel 'preemption latency (cycles)'
set key top right
$paper << EOD
0,2000,8000
5,50,220
EOD
plot dir.'/fig11c-summary.csv' skip 1 every ::0::5 using 7:xtic(2) title 'Oldest', \
     '' skip 1 every ::6::11 using 7 title 'Newest', \
     $paper using ($1-0.17):2 with points pt 2 ps 2 lw 2 lc rgb 'black' title 'paper (Oldest)', \
     $paper using ($1+0.17):3 with points pt 6 ps 2 lw 2 lc rgb 'black' title 'paper (Newest)'

set output dir.'/fig11b.png'
set terminal pngcairo size 960,720 font ',10'
set multiplot layout 2,1 title "Fig. 11b: why victims could not be preempted at once (no optimisation, mean over the backgrounds; reasons overlap)"
unset logscale y
set yrange [0:100]
set ylabel '% of preemptions'
set title 'how often each stall held'
plot dir.'/fig11b-summary.csv' skip 1 using 2:xtic(1) title 'Oldest', '' skip 1 using 3 title 'Newest'
set logscale y
set yrange [1:20000]
set ylabel 'cycles per preemption'
set title 'how long it held, per preemption'
plot dir.'/fig11b-summary.csv' skip 1 using 4:xtic(1) title 'Oldest', '' skip 1 using 5 title 'Newest'
unset multiplot
