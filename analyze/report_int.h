/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by report.c and the views' report sections (analyze/views/); not part of the
 * analyzer's interface. The HTML escaping and the inlined plots live in analyze/render/html.c. */
#ifndef LAB_ANALYZE_REPORT_INT_H
#define LAB_ANALYZE_REPORT_INT_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/plots.h"
#include "analyze/render/render.h"

#endif
