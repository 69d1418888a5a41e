/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the mode search (modes.c) and its density estimate (modes_density.c). */
#ifndef LAB_ANALYZE_MODES_INT_H
#define LAB_ANALYZE_MODES_INT_H

#include <stddef.h>

#define MD_GRID 512 /* grid points of the density */

/* The adaptive kernel density of the sorted samples s[0..n-1] on the grid lo + i step
 * (i < MD_GRID) with pilot bandwidth h, into dens[MD_GRID]. */
void lab__modes_density(const double *s, size_t n, double lo, double step, double h, double *dens);

#endif
