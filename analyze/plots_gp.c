/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What every plot file is made of: numbers and strings as gnuplot reads them (untrusted text
 * only as inert single-quoted literals), the terminal preamble and trailer, safe file names,
 * fresh files created in the plots directory handle and recorded, and the list of plots.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/flagged.h"
#include "analyze/manifest.h"
#include "analyze/plots_int.h"
#include "harness/json.h"
#include "harness/record_schema.h"

int lab_an_have_program(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		const char *end = strchr(path, ':');
		int len = end ? (int)(end - path) : (int)strlen(path);

		snprintf(buf, sizeof(buf), "%.*s/%s", len, path, prog);
		if (len && access(buf, X_OK) == 0)
			return 1;
		path = end ? end + 1 : NULL;
	}
	return 0;
}

void lab_an_dat_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.9g", v);
	else
		fputs(" NaN", f);
}

/* Labels longer than this are cut (with "...") so one field cannot flood a plot. */
#define AN_GP_STR_MAX 240

/*
 * Text from the results directory is untrusted. A single-quoted gnuplot string is the one form
 * gnuplot never expands: no backquote command substitution, no @macro, no backslash escapes
 * (gnuplot 5 "quote marks" and "substitution"); the only special byte is the quote itself,
 * doubled. Defence in depth on top: only printable ASCII and well-formed UTF-8 survive, a
 * newline (which would end the command) and every control byte become a space, backquote and @
 * become '_', and any other byte (malformed UTF-8, a C1, bidi or invisible control:
 * lab_utf8_control_cp) becomes '?', so what reaches gnuplot is data whatever the quoting rules
 * of a future version (each byte of "café" had been a '?', hostile45). And for the SVG gnuplot
 * writes: '&' becomes '+' and the '>' of "]]>" a '?' (gnuplot 5.4's svg terminal copies "&#x202e;"
 * and "]]>" into its <text> as they are: a character reference put a right-to-left override into
 * the plot, "&#x41" or "]]>" made the file no XML at all).
 */
/* 1 when s starts a well-formed UTF-8 character of at most room bytes that is not a control
 * (a bidi override, U+2028, a zero-width space: lab_utf8_control_cp). */
static int gp_utf8_ok(const char *s, size_t room)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = lab_utf8_len(u);

	/* U+FFFE and U+FFFF are no XML characters: the SVG would not parse */
	return k > 1 && k <= room && !lab_utf8_control_cp(u, k) &&
	       !(k == 3 && u[0] == 0xef && u[1] == 0xbf && u[2] >= 0xbe);
}

void lab_an_gp_str(FILE *f, const char *s)
{
	size_t n = 0;

	fputc('\'', f);
	for (; s && *s && n < AN_GP_STR_MAX; s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'')
			fputs("''", f);
		else if (c == '`' || c == '@')
			fputc('_', f);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (c > 0x7f && gp_utf8_ok(s, AN_GP_STR_MAX - n)) {
			size_t k = lab_utf8_len((const unsigned char *)s);

			fwrite(s, 1, k, f);
			s += k - 1;
			n += k - 1;
		} else if (c > 0x7f || (c == '>' && n >= 2 && s[-1] == ']' && s[-2] == ']'))
			fputc('?', f);
		else if (c == '&')
			fputc('+', f);
		else
			fputc(c, f);
	}
	if (s && *s)
		fputs("...", f);
	fputc('\'', f);
}

/* Where a line of at most width bytes of s ends: after the last of brk's bytes (and the
 * space after it) past a quarter of the width, else after its last space past half, else
 * where width bytes end on a character (s is longer than width). */
static size_t gp_line_cut(const char *s, size_t width, const char *brk)
{
	size_t cut, half = width / 2;

	for (cut = width; cut > width / 4 && !strchr(brk, s[cut - 1]); cut--)
		;
	if (cut > width / 4)
		return cut + (s[cut] == ' ');
	for (size_t k = width; k > half; k--)
		if (s[k - 1] == ' ')
			return k;
	return (size_t)lab_an_utf8_fit(s, width);
}

void lab_an_gp_lines(FILE *f, const char *s, size_t width, int lines, const char *brk, int lead)
{
	for (int line = 0; s && *s && line < lines; line++) {
		char part[AN_GP_STR_MAX + 4];
		size_t len = strlen(s), cut = len > width ? gp_line_cut(s, width, brk) : len;

		snprintf(part, sizeof(part), "%.*s%s", (int)cut, s,
		         line == lines - 1 && cut < len ? "..." : "");
		fputs(line || lead ? ".\"\\n\"." : "", f);
		lab_an_gp_str(f, part);
		s += cut;
	}
}

/* The terminal preamble and the trailer that renders the same plot again as PNG. base is a
 * slug the analyzer made (lab_an_plot_slug); title and the optional second line sub are
 * untrusted text. */
void lab_an_gp_head(FILE *f, const char *base, const char *title, const char *sub, int height)
{
	fprintf(f,
	        "# Written by lab analyze. Run: gnuplot %s.gp\nreset\nset encoding utf8\n"
	        "set terminal svg size 720,%d dynamic background rgb 'white' font 'sans,11' "
	        "noenhanced\nset output '%s.svg'\nset title ",
	        base, height, base);
	lab_an_gp_str(f, title);
	/* sub on lines of 76 bytes at most, broken after a ';' or a space, three at most (past
	 * some 100 characters 720 pixels cut both ends: the number of load-flagged points went,
	 * plots43; gnuplot centres a title over the plot, up to 30 pixels right of the canvas'
	 * centre, so lines of 88 still lost their last characters, plots44) */
	lab_an_gp_lines(f, sub, 76, 3, ";", 1);
	fputs(" noenhanced\nset key top left box noenhanced\nset grid\n", f);
}

/* Keeps [A-Za-z0-9.-], maps everything else to '_'; a leading '.' or '-' too, so the name is
 * never hidden, never an option and never "..". */
void lab_an_plot_slug(const char *in, char *out, size_t len)
{
	size_t k = 0;

	for (; in && *in && k + 1 < len; in++) {
		char c = *in;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		         (c >= '0' && c <= '9') || ((c == '.' || c == '-') && k);

		out[k++] = ok ? c : '_';
	}
	if (len)
		out[k] = 0;
}

void lab_an_gp_tail(FILE *f, const char *base, int height)
{
	fprintf(f,
	        "set terminal pngcairo size 720,%d background rgb 'white' font 'sans,11' "
	        "noenhanced\n"
	        "set output '%s.png'\nreplot\nunset output\n",
	        height, base);
}

int lab_an_plot_add(struct lab_an_plots *p, const char *kind, const char *title, const char *base,
                    const char *view, size_t group)
{
	struct lab_an_plot *q;

	if (lab_an_grow(&p->p, &p->cap, p->n + 1, sizeof(*p->p)))
		return -LAB_ENOMEM;
	q = &p->p[p->n];
	*q = (struct lab_an_plot){kind, lab_an_strdup(title), lab_an_strdup(base), view, group, 0,
	                          0};
	if (!q->title || !q->base) {
		free(q->title);
		free(q->base);
		return -LAB_ENOMEM;
	}
	p->n++;
	return 0;
}

static unsigned long long an_opened;

unsigned long long lab_an_plot_files_opened(void)
{
	return an_opened;
}

FILE *lab_an_open(struct lab_an_wfile *w, const struct lab_an_pdir *pdir, const char *base,
                  const char *ext, struct lab_err *err)
{
	char name[512];

	an_opened++;
	snprintf(name, sizeof(name), "%s.%s", base, ext);
	/* A fresh temporary renamed over the name: a hard link planted at the name is replaced,
	 * never written through (analyze/wfile.h). */
	return lab_an_wfile_openat(w, pdir->fd, pdir->path, name, err);
}

int lab_an_close(struct lab_an_wfile *w, const struct lab_an_pdir *pdir, struct lab_err *err)
{
	char *name = pdir->wrote ? lab_an_strdup(w->name) : NULL;
	int rc = lab_an_wfile_close(w, 1, err);

	if (!rc && pdir->wrote && (!name || lab_an_manifest_add(pdir->wrote, LAB_DIR_PLOTS, name)))
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	free(name);
	return rc;
}

void lab_an_key_begin(struct lab_an_key *k, char *buf, size_t len, const char *label)
{
	*k = (struct lab_an_key){.buf = buf, .len = len};
	k->used = snprintf(buf, len, "%s", label);
}

void lab_an_key_missing(struct lab_an_key *k, double x, const struct lab_an_point *p)
{
	k->flagged += lab_an_flagged_all(p);
	if (k->n++ < 3 && k->used > 0 && (size_t)k->used < k->len)
		k->used += snprintf(k->buf + k->used, k->len - (size_t)k->used, "%s%g",
		                    k->n == 1 ? " [no data at " : ", ", x);
}

const char *lab_an_key_end(struct lab_an_key *k)
{
	if (k->n && k->used > 0 && (size_t)k->used < k->len)
		snprintf(k->buf + k->used, k->len - (size_t)k->used, "%s%s]",
		         k->n > 3 ? ", ..." : "",
		         k->flagged == k->n ? ": load-flagged"
		         : k->flagged       ? ": load-flagged or not run"
		                            : ": not run");
	return k->buf;
}
