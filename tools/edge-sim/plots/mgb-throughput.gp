# repro-mgb.sh's throughput.csv: throughput normalised to SA per
# workload, 2 x P100 then 4 x V100 (MGB Fig. 5, with Alg. 2 and ours).
set datafile separator ','
set terminal pngcairo size 1100,480 font ',10'
set style data histogram
set style histogram clustered gap 2
set style fill solid 0.85 border -1
set grid ytics
set key top center horizontal
set title 'Throughput normalised to SA: 2 x P100 (W1-W8), then 4 x V100 (W1-W8)'
set ylabel 'x SA'
set yrange [0:3]
set xtics rotate by -45
set output out
plot in using 5:xtic(sprintf('%s %s', stringcolumn(1), stringcolumn(2))) title 'SA', \
	'' using 6 title 'CG (best, no crash)', '' using 8 title 'MGB Alg. 2', \
	'' using 9 title 'MGB Alg. 3', '' using 10 title 'ours (mgb-live)'
