# Written by lab analyze. Run: gnuplot fixture02-all-shares.gp
reset
set encoding utf8
set terminal svg size 720,480 dynamic background rgb 'white' font 'sans,11' noenhanced
set output 'fixture02-all-shares.svg'
set title 'slots' noenhanced
set key top left box noenhanced
set grid
set xlabel 'point'
set ylabel 'fraction'
unset label
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75 relative
set xtics noenhanced rotate by -30 ('<script>x</script> ''q'' "d" _id_ a\b line2' 0, '3' 1)
set key below nobox
plot 'fixture02-all-shares.dat' using 2 lc 1 title 'retiring', 'fixture02-all-shares.dat' using 3 lc 2 title '<script>x</script> ''q'' "d" _id_ a\b line2 [no data at 3: not...', 'fixture02-all-shares.dat' using 4 lc 3 title 'back-end bound'
set terminal pngcairo size 720,480 background rgb 'white' font 'sans,11' noenhanced
set output 'fixture02-all-shares.png'
replot
unset output
