/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Temporaries an earlier analysis left in a results directory when it was killed with no
 * chance to clean up (SIGKILL, a power cut; SIGTERM and SIGINT remove them, analyze/wfile.h):
 * the writer's .NAME.PID-TAG.lab-tmp files in DIR and DIR/plots, and gnuplot's private
 * directory plots/.render.PID-TAG.lab-tmp (analyze/plots_render.c). The directory is untrusted
 * input, so only what matches those patterns exactly is removed, only regular files (and the
 * render directory with the regular files in it), through handles on the directory, never
 * following a link: a link named like a temporary is left alone and its target untouched.
 */
#ifndef LAB_ANALYZE_WSTALE_H
#define LAB_ANALYZE_WSTALE_H

#include <stddef.h>

/* The age below which a temporary is never stale: another host's analysis of a shared DIR
 * may still be writing it (its PID means nothing here). */
#define LAB_AN_STALE_AGE_S 60

/*
 * Removes from dir and dir/plots the temporaries named like an analyzer's that are stale: owned
 * by this user, made by a process that no longer runs on this machine (the PID in the name; a
 * live analysis of the same DIR keeps its own), and not modified for LAB_AN_STALE_AGE_S seconds.
 * Best effort: whatever cannot be checked or removed is left. Returns how many were removed.
 */
size_t lab_an_stale_sweep(const char *dir);

/* The PID in name when name is exactly a temporary's (.STEM.PID-TAG.lab-tmp: STEM not empty,
 * PID decimal without leading zeros, TAG 16 lowercase hex digits), else 0. */
long lab_an_stale_pid(const char *name);

#endif
