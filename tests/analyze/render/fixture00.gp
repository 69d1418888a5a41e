# Written by lab analyze. Run: gnuplot fixture00-exp1-size_16K_team_lab.gp
reset
set encoding utf8
set terminal svg size 720,480 dynamic background rgb 'white' font 'sans,11' noenhanced
set output 'fixture00-exp1-size_16K_team_lab.svg'
set title 'exp1: cost'."\n".'size=16K;team=lab' noenhanced
set key top left box noenhanced
set grid
set xlabel 'size (bytes)'."\n".'no points: <script>x</script> ''q'' "d" _id_ a\b line (not run)'
set ylabel 'ns'
set logscale x 2
set format x '%g'
set autoscale xfixmin
set autoscale xfixmax
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set label '<script>x</script> ''q'' "d" _id_ a\b line2' at 16384, 10.5 front noenhanced
set key below nobox
plot 'fixture00-exp1-size_16K_team_lab.dat' index 0 using 1:2:3:4 with yerrorlines lc 1 pt 1 dt 1 title 'tas', (x * 2.5 < 100 ? x * 2.5 : 100) with lines lw 2 dt 1 lc rgb 'gray40' title 'roof'
set terminal pngcairo size 720,480 background rgb 'white' font 'sans,11' noenhanced
set output 'fixture00-exp1-size_16K_team_lab.png'
replot
unset output
