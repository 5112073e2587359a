# Draining on the h100-like preset: gnuplot -e "dir='...'" h100.gp
set datafile separator ','
set terminal pngcairo size 720,460 font ',10'
set output dir.'/h100-drain.png'
set title "Draining on an h100-like GPU: single-warp kernel behind a GPU-filling\nbackground of 500k-cycle TBs (4 waves), in units of one background TB"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set grid ytics
set yrange [0:*]
set ylabel 'scheduling latency (background TBs)'
set key top left
plot dir.'/h100-drain-summary.csv' skip 1 using 6:xtic(1) title 'average', \
     '' skip 1 using 7 title 'maximum', \
     '' skip 1 using ($8/$5) title 'background left at arrival (avg)'
