# Written by lab analyze. Run: gnuplot fixture01-all-heat.gp
reset
set encoding utf8
set terminal svg size 720,480 dynamic background rgb 'white' font 'sans,11' noenhanced
set output 'fixture01-all-heat.svg'
set title 'one-way latency' noenhanced
set key top left box noenhanced
set grid
set xlabel 'to cpu'
set ylabel 'from cpu'
unset grid
unset key
set xrange [-0.5:2.5]
set yrange [1.5:-0.5]
set palette defined (0 '#ffffcc', 1 '#feb24c', 2 '#f03b20')
set cblabel 'ns'
set xtics ('0' 0, '1' 1, '2' 2)
set ytics ('0' 0, '1' 1)
plot 'fixture01-all-heat.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder linecolor palette, '' index 1 using 1:2:3 with labels font ',9' textcolor rgb 'black'
set terminal pngcairo size 720,480 background rgb 'white' font 'sans,11' noenhanced
set output 'fixture01-all-heat.png'
replot
unset output
