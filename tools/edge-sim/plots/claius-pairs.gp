# repro-claius.sh's pairs.csv: each pair's p99 over its target, one
# point per pair and allocation (Figs. 2, 16 and 18 in one).
set datafile separator ','
set terminal pngcairo size 1280,520 font ',10'
set grid ytics
set key outside right top vertical
set title 'p99 latency / QoS target of the 48 pairs (above 1: violated)'
set ylabel 'p99 / target'
set xlabel 'pair (service-major)'
set logscale y
set output out
pols = 'even priority baymax claius-nb claius-nc claius'
plot for [i=1:words(pols)] in using ((column(0) - i + 1) / words(pols)):(strcol(3) eq word(pols, i) ? $6 : 1/0) with points pt 7 ps 0.7 title word(pols, i), \
	1 with lines lc rgb 'black' notitle
