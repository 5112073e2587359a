# repro-claius.sh's fig17.csv: one imc query's quota over time beside BFS
# under C-Laius (the paper's Fig. 17).
set datafile separator ','
set terminal pngcairo size 900,420 font ',10'
set grid
set key off
set title 'Quota of one imc query beside 4 x BFS under C-Laius'
set xlabel 'time since its first task (ms)'
set ylabel 'quota (% of SMs)'
set yrange [0:105]
set output out
plot in using 1:3 with steps lw 2
