/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document's figures: curves, their points and gaps, ceilings, labels (doc.h). */
#include <math.h>

#include "analyze/render/doc_int.h"

struct lab_doc_figure *lab_doc_figure(struct lab_doc_section *s, const char *key, const char *title,
                                      const char *xlabel, const char *ylabel)
{
	struct lab_doc_figure *f = s ? lab__doc_alloc(s->doc, sizeof(*f)) : NULL;
	struct lab_doc_block *b;

	if (!f || !(b = lab__doc_block(s, LAB_DOC_FIGURE)))
		return NULL;
	f->doc = s->doc;
	f->key = lab__doc_str(s->doc, key);
	f->title = lab__doc_str(s->doc, title);
	f->sub = s->sub;
	f->xlabel = lab__doc_str(s->doc, xlabel);
	f->ylabel = lab__doc_str(s->doc, ylabel);
	f->id = s->doc->nfig++;
	b->u.figure = f;
	return f;
}

struct lab_doc_curve *lab_doc_curve(struct lab_doc_figure *f, const char *label,
                                    enum lab_doc_style style)
{
	struct lab_doc_curve *c = f ? lab__doc_alloc(f->doc, sizeof(*c)) : NULL;

	if (!c || lab__doc_grow(f->doc, &f->c, &f->cap, f->nc + 1, sizeof(*f->c)))
		return NULL;
	c->doc = f->doc;
	c->label = lab__doc_str(f->doc, label);
	c->style = style;
	c->color = c->dash = 0;
	c->a = c->b = NAN;
	f->c[f->nc++] = c;
	return c;
}

void lab_doc_point(struct lab_doc_curve *c, double x, double y, double lo, double hi)
{
	if (!c || c->doc->failed || !isfinite(x) || !isfinite(y) ||
	    lab__doc_grow(c->doc, &c->p, &c->cap, c->n + 1, sizeof(*c->p)))
		return;
	c->p[c->n++] = (struct lab_doc_pt){x, y, lo, hi};
}

void lab_doc_gap(struct lab_doc_curve *c, const char *x, const char *why)
{
	if (!c || c->doc->failed || c->ngap++ > 3)
		return;
	if (c->ngap == 4)
		c->missing = lab_doc_printf(c->doc, "%s; ...", c->missing);
	else
		c->missing = c->missing ? lab_doc_printf(c->doc, "%s; %s: %s", c->missing, x, why)
		                        : lab_doc_printf(c->doc, "%s: %s", x, why);
}

void lab_doc_flabel(struct lab_doc_figure *f, double x, double y, const char *text)
{
	if (!f || f->doc->failed ||
	    lab__doc_grow(f->doc, &f->label, &f->lcap, f->nlabel + 1, sizeof(*f->label)))
		return;
	f->label[f->nlabel].x = x;
	f->label[f->nlabel].y = y;
	f->label[f->nlabel++].text = lab__doc_str(f->doc, text);
}

void lab_doc_flagged(struct lab_doc_figure *f, size_t kept)
{
	/* first: a long sub loses its end past three lines (hostile44) */
	if (f && kept)
		f->sub =
		    lab_doc_printf(f->doc, "load-flagged samples kept in %zu point%s%s%s", kept,
		                   kept == 1 ? "" : "s", f->sub ? "; " : "", f->sub ? f->sub : "");
}
