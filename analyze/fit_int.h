/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared between the fit files only. */
#ifndef LAB_ANALYZE_FIT_INT_H
#define LAB_ANALYZE_FIT_INT_H

#include <stddef.h>

#include "analyze/fit.h"

/* Fills fit->lof from the samples (threads[i], y[i]) and the weights w[i] the fit used; the
 * weights are constant within each N, so the pure-error sum is the weighted scatter around each
 * N's mean and the lack-of-fit sum is the rest of chi^2. */
void lab_an_fit_lof(struct lab_an_fit *fit, const double *threads, const double *y,
                    const double *w);

#endif
