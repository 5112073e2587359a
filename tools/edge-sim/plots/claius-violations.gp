# repro-claius.sh's summary.csv: QoS violations out of 48 pairs per
# allocation, edge-sim beside the paper.
set datafile separator ','
set terminal pngcairo size 900,480 font ',10'
set style data histogram
set style histogram clustered gap 2
set style fill solid 0.85 border -1
set grid ytics
set key top right
set title 'QoS violations out of 48 service + 4 x batch pairs'
set ylabel 'pairs violating'
set yrange [0:48]
set output out
plot in using 2:xtic(1) title 'edge-sim', '' using 4 title 'paper'
