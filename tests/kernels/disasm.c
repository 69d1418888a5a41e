/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/kernels/disasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct insn {
	unsigned long addr;
	unsigned long target; /* jumps: where to; 0 otherwise */
	char mn[24];          /* mnemonic */
	char ops[104];        /* operands as printed */
};

struct func {
	char name[96];
	size_t first, n; /* into insns */
};

struct disasm {
	struct insn *insns;
	size_t ninsns, cap;
	struct func *funcs;
	size_t nfuncs, fcap;
};

static bool da_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 1024;
	void *q = realloc(*p, c * elem);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

/* "  1f:\tvaddpd (%rax),%ymm0,%ymm0" or "  57:\tjb     18 <f+0x18>" */
static bool da_parse_insn(const char *line, struct insn *in)
{
	char *end;

	memset(in, 0, sizeof(*in));
	in->addr = strtoul(line, &end, 16);
	if (end == line || *end != ':')
		return false;
	end++;
	while (*end == ' ' || *end == '\t')
		end++;
	if (sscanf(end, "%23s %103[^\n]", in->mn, in->ops) < 1)
		return false;
	if (in->mn[0] == 'j')
		in->target = strtoul(in->ops, NULL, 16);
	return true;
}

struct disasm *disasm_open(const char *lib)
{
	char cmd[1200], line[512];
	struct disasm *d = calloc(1, sizeof(*d));
	FILE *f;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn '%s'", lib);
	if (!d || !(f = popen(cmd, "r"))) {
		fprintf(stderr, "disasm: cannot run objdump on %s\n", lib);
		free(d);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[96];
		unsigned long a;
		if (sscanf(line, "%lx <%95[^>]>:", &a, name) == 2) {
			if (!da_grow((void **)&d->funcs, &d->fcap, d->nfuncs + 1,
			             sizeof(*d->funcs)))
				break;
			struct func *fn = &d->funcs[d->nfuncs++];
			snprintf(fn->name, sizeof(fn->name), "%s", name);
			fn->first = d->ninsns;
			fn->n = 0;
			continue;
		}
		struct insn in;
		if (!d->nfuncs || !da_parse_insn(line, &in))
			continue;
		if (!da_grow((void **)&d->insns, &d->cap, d->ninsns + 1, sizeof(*d->insns)))
			break;
		d->insns[d->ninsns++] = in;
		d->funcs[d->nfuncs - 1].n++;
	}
	pclose(f);
	if (!d->nfuncs)
		fprintf(stderr, "disasm: no functions in objdump -d of %s\n", lib);
	return d;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	free(d->insns);
	free(d->funcs);
	free(d);
}

void disasm_each(const struct disasm *d, const char *prefix,
                 void (*fn)(const char *name, void *arg), void *arg)
{
	for (size_t i = 0; i < d->nfuncs; i++)
		if (!strncmp(d->funcs[i].name, prefix, strlen(prefix)))
			fn(d->funcs[i].name, arg);
}

static unsigned da_reg_width(const char *ops)
{
	return strstr(ops, "%zmm") ? 64 : strstr(ops, "%ymm") ? 32 : strstr(ops, "%xmm") ? 16 : 0;
}

static bool da_starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* FP arithmetic: (v)add/sub/mul/div/min/max + ps/pd/ss/sd, and the FMA family. */
static bool da_fp_arith(const char *mn, bool *fma)
{
	const char *m = mn[0] == 'v' ? mn + 1 : mn;
	size_t n = strlen(m);

	*fma = da_starts(m, "fmadd") || da_starts(m, "fmsub") || da_starts(m, "fnmadd") ||
	       da_starts(m, "fnmsub");
	if (n < 3 || !strchr("ps", m[n - 2]) || !strchr("sd", m[n - 1]))
		return false;
	return *fma || da_starts(m, "add") || da_starts(m, "sub") || da_starts(m, "mul") ||
	       da_starts(m, "div") || da_starts(m, "min") || da_starts(m, "max");
}

/* Packed integer arithmetic or logic (paddd, vpmulld, vpor, vpternlogd, ...). */
static bool da_packed_int(const char *mn)
{
	const char *m = mn[0] == 'v' ? mn + 1 : mn;

	return da_starts(m, "padd") || da_starts(m, "psub") || da_starts(m, "pmul") ||
	       da_starts(m, "por") || da_starts(m, "pand") || da_starts(m, "pxor") ||
	       da_starts(m, "pternlog") || da_starts(m, "pcmp");
}

/* Bytes an instruction with a memory operand moves: the scalar size or the register width. */
static unsigned da_mem_size(const struct insn *in)
{
	size_t n = strlen(in->mn);
	unsigned w = da_reg_width(in->ops);

	if (n >= 2 && (!strcmp(in->mn + n - 2, "sd")))
		return 8;
	if (n >= 2 && (!strcmp(in->mn + n - 2, "ss")))
		return 4;
	if (w)
		return w;
	/* A general register: its name outside the address says 64-bit (%r..) or 32-bit. */
	char regs[sizeof(in->ops)];
	size_t k = 0;
	int depth = 0;
	for (const char *c = in->ops; *c && k + 1 < sizeof(regs); c++) {
		depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
		if (!depth && *c != ')')
			regs[k++] = *c;
	}
	regs[k] = '\0';
	return strstr(regs, "%r") ? 8 : 4;
}

/* xor of a register with itself: the zeroing idiom, not arithmetic. */
static bool da_zeroing(const struct insn *in)
{
	const char *c = strchr(in->ops, ',');

	if (!strstr(in->mn, "xor") || !c)
		return false;
	size_t n = (size_t)(c - in->ops);
	return !strncmp(in->ops, c + 1, n) && (c[1 + n] == '\0' || c[1 + n] == ',');
}

static void da_count(const struct insn *in, struct disasm_loop *o)
{
	bool fma;
	unsigned w = da_reg_width(in->ops);

	if (da_zeroing(in)) {
		o->ninsns++;
		return;
	}

	o->ninsns++;
	o->width = w > o->width ? w : o->width;
	if (strstr(in->mn, "gather"))
		o->has_gather = true;
	if (da_fp_arith(in->mn, &fma)) {
		size_t n = strlen(in->mn);
		bool packed = in->mn[n - 2] == 'p';
		unsigned lanes = packed ? w / (in->mn[n - 1] == 'd' ? 8 : 4) : 1;
		o->fp_ops++;
		o->packed += packed;
		o->flops += (double)lanes * (fma ? 2 : 1);
	} else if (da_packed_int(in->mn)) {
		o->packed++;
	}
	if (strchr(in->ops, '(') && !da_starts(in->mn, "lea") && !da_starts(in->mn, "nop") &&
	    !da_starts(in->mn, "prefetch") && !strstr(in->mn, "gather")) {
		o->mem_bytes += da_mem_size(in);
		if (in->ops[strlen(in->ops) - 1] == ')') /* AT&T: the destination is last */
			o->store_bytes += da_mem_size(in);
	}
}

bool disasm_loop(const struct disasm *d, const char *name, struct disasm_loop *out)
{
	const struct func *fn = NULL;
	size_t best_lo = 0, best_hi = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < d->nfuncs && !fn; i++)
		if (!strcmp(d->funcs[i].name, name))
			fn = &d->funcs[i];
	if (!fn)
		return false;
	const struct insn *in = d->insns + fn->first;
	unsigned best_score = 0;
	/* Loops: [index of the jump target, index of the backward jump], without a ret inside. */
	for (size_t j = 0; j < fn->n; j++) {
		if (!in[j].target || in[j].target > in[j].addr)
			continue;
		size_t lo = j;
		while (lo > 0 && in[lo].addr > in[j].target)
			lo--;
		bool inner = true;
		unsigned score = 0;
		for (size_t k = lo; k < j && inner; k++) {
			inner = !(in[k].target && in[k].target <= in[k].addr &&
			          in[k].target >= in[lo].addr) &&
			        !da_starts(in[k].mn, "ret");
			struct disasm_loop one = {0};
			da_count(&in[k], &one);
			/* Arithmetic and loads weigh more than a lone store (a result written per
			 * pass when n is 0 is a loop too). */
			score += 2 * (one.fp_ops + one.packed) + (one.store_bytes > 0) +
			         2 * (one.mem_bytes > one.store_bytes);
		}
		/* The innermost loop that does the most work: the unrolled main loop, not a tail.
		 */
		if (inner && score > best_score) {
			best_score = score;
			best_lo = lo;
			best_hi = j;
		}
	}
	if (best_hi == best_lo)
		return false;
	for (size_t k = best_lo; k <= best_hi; k++)
		da_count(&in[k], out);
	return true;
}
