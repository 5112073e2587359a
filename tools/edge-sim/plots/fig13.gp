# Fig. 13 from repro-edge.sh's tables: gnuplot -e "dir='...'" fig13.gp
# pairs: the (background, event) pairs per rate (16; fewer in a smoke run).
# fig13-summary.csv: a header, then pairs + 1 rows (the last AVG) per rate.
if (!exists('pairs')) pairs = 16
lo0 = 1; lo1 = pairs + 1; hi0 = pairs + 2; hi1 = 2 * pairs + 2
set datafile separator ','
set terminal pngcairo size 1200,820 font ',10'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set xtics rotate by -45 scale 0
set grid ytics
set key top left

set output dir.'/fig13-events.png'
set multiplot layout 2,1 title "Fig. 13: event-kernel slowdown (incl. scheduling) for Draining, Reservation (50% of cores), Preemption"
set logscale y 2
set yrange [0.5:16]
set ylabel 'event slowdown (log2)'
set title 'low rate (Poisson arrivals 1015 cycles apart for IPV4/IPV6, 12000 for MEMC/IPSEC; at most 2 in flight, the rest dropped)'
plot dir.'/fig13-summary.csv' every ::lo0::lo1 using 3:xtic(2) title 'D', '' every ::lo0::lo1 using 4 title 'R', '' every ::lo0::lo1 using 5 title 'P'
set title 'high rate (arrivals 150 / 1500 cycles apart; at most 32 IPV4/IPV6 or 16 MEMC/IPSEC in flight, the rest dropped)'
plot dir.'/fig13-summary.csv' every ::hi0::hi1 using 3:xtic(2) title 'D', '' every ::hi0::hi1 using 4 title 'R', '' every ::hi0::hi1 using 5 title 'P'
unset multiplot

set output dir.'/fig13-background.png'
set multiplot layout 2,1 title "Fig. 13: background slowdown (vs the same background alone) for Draining, Reservation, Preemption"
unset logscale y
set yrange [0:*]
set ylabel 'background slowdown'
set title 'low rate'
plot dir.'/fig13-summary.csv' every ::lo0::lo1 using 6:xtic(2) title 'D', '' every ::lo0::lo1 using 7 title 'R', '' every ::lo0::lo1 using 8 title 'P'
set title 'high rate'
plot dir.'/fig13-summary.csv' every ::hi0::hi1 using 6:xtic(2) title 'D', '' every ::hi0::hi1 using 7 title 'R', '' every ::hi0::hi1 using 8 title 'P'
unset multiplot
