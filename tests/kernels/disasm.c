/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/kernels/disasm.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct insn {
	unsigned long addr;
	unsigned long target; /* direct jumps: where to (has_target) */
	bool has_target;
	char mn[24];   /* mnemonic, prefixes (bnd, notrack, cs, lock, ...) dropped */
	char ops[160]; /* operands as printed */
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

static bool da_starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static bool da_prefix(const char *mn)
{
	static const char *const pfx[] = {"bnd",    "notrack", "cs",    "ds",     "ss",  "es",
	                                  "data16", "rex",     "rex.W", "lock",   "rep", "repz",
	                                  "repnz",  "repe",    "repne", "addr32", NULL};

	for (unsigned i = 0; pfx[i]; i++)
		if (!strcmp(mn, pfx[i]))
			return true;
	return false;
}

/* "  1f:\tvaddpd (%rax),%ymm0,%ymm0" or "  57:\tjb     18 <f+0x18>" */
static bool da_parse_insn(const char *line, struct insn *in)
{
	char *end;
	int used = 0;

	memset(in, 0, sizeof(*in));
	in->addr = strtoul(line, &end, 16);
	if (end == line || *end != ':')
		return false;
	end++;
	for (;;) {
		while (*end == ' ' || *end == '\t')
			end++;
		if (sscanf(end, "%23s%n", in->mn, &used) < 1)
			return false;
		end += used;
		if (!da_prefix(in->mn))
			break;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	snprintf(in->ops, sizeof(in->ops), "%s", end);
	in->ops[strcspn(in->ops, "\n")] = '\0';
	if (in->mn[0] == 'j' && strchr("0123456789abcdef", in->ops[0]) && in->ops[0]) {
		in->target = strtoul(in->ops, NULL, 16);
		in->has_target = true;
	}
	return true;
}

struct disasm *disasm_read(FILE *f)
{
	char line[512];
	struct disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
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
	return d;
}

struct disasm *disasm_open(const char *lib)
{
	char cmd[1200];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn '%s'", lib);
	if (!(f = popen(cmd, "r"))) {
		fprintf(stderr, "disasm: cannot run objdump on %s\n", lib);
		return NULL;
	}
	struct disasm *d = disasm_read(f);
	pclose(f);
	if (d && !d->nfuncs)
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

bool disasm_insns(const struct disasm *d, const char *name,
                  void (*fn)(const char *mn, const char *ops, void *arg), void *arg)
{
	for (size_t i = 0; i < d->nfuncs; i++) {
		if (strcmp(d->funcs[i].name, name))
			continue;
		for (size_t k = 0; k < d->funcs[i].n; k++)
			fn(d->insns[d->funcs[i].first + k].mn, d->insns[d->funcs[i].first + k].ops,
			   arg);
		return true;
	}
	return false;
}

/* ---- operands ---- */

enum { DA_RSP = 4, DA_RBP = 5, DA_RIP = 16, DA_NOREG = -1, DA_VECREG = -2 };

/*
 * The general register family of "%name" (0 rax, 1 rcx, 2 rdx, 3 rbx, 4 rsp, 5 rbp, 6 rsi,
 * 7 rdi, 8..15 r8..r15, 16 rip), DA_VECREG for a vector or mask register, DA_NOREG otherwise.
 * *bits: its width.
 */
static int da_reg(const char *s, size_t len, unsigned *bits)
{
	static const char *const r64[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
	static const char *const r32[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
	static const char *const r16[] = {"ax", "cx", "dx", "bx", "sp", "bp", "si", "di"};
	static const char *const r8[] = {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil"};
	char n[8];

	*bits = 64;
	if (len < 2 || s[0] != '%' || len - 1 >= sizeof(n))
		return DA_NOREG;
	memcpy(n, s + 1, len - 1);
	n[len - 1] = '\0';
	if (!strcmp(n, "rip"))
		return DA_RIP;
	if (strchr("xyzk", n[0]) && strlen(n) >= 2 && (n[1] == 'm' || (n[0] == 'k' && n[1] <= '9')))
		return DA_VECREG;
	for (int i = 0; i < 8; i++) {
		if (!strcmp(n, r64[i]))
			return i;
		if (!strcmp(n, r32[i]))
			return *bits = 32, i;
		if (!strcmp(n, r16[i]))
			return *bits = 16, i;
		if (!strcmp(n, r8[i]))
			return *bits = 8, i;
	}
	if (n[0] == 'r' && n[1] >= '0' && n[1] <= '9') {
		char *e;
		long k = strtol(n + 1, &e, 10);
		if (k < 8 || k > 15)
			return DA_NOREG;
		*bits = *e == 'd' ? 32 : *e == 'w' ? 16 : *e == 'b' ? 8 : 64;
		return (int)k;
	}
	return DA_NOREG;
}

/* Splits ops at top-level commas (not inside () or {}): up to max operands into out. */
static unsigned da_split(const char *ops, char out[][64], unsigned max)
{
	unsigned n = 0;
	size_t k = 0;
	int depth = 0;

	if (!*ops)
		return 0;
	for (const char *c = ops;; c++) {
		if (*c == '(' || *c == '{')
			depth++;
		if (*c == ')' || *c == '}')
			depth--;
		if ((*c == ',' && !depth) || !*c || *c == ' ' || *c == '<') {
			if (n < max) {
				out[n][k < 63 ? k : 63] = '\0';
				n++;
			}
			k = 0;
			if (*c != ',')
				break;
			continue;
		}
		if (n < max && k < 63)
			out[n][k] = *c;
		k++;
	}
	return n;
}

struct da_mem {
	bool present;
	bool local; /* stack, frame, %rip or a segment: not the kernel's data */
	bool dest;  /* the last operand: written */
	long disp;
	int base, index; /* register families, DA_NOREG when absent */
	long scale;
	unsigned size;
};

static unsigned da_reg_width(const char *ops)
{
	return strstr(ops, "%zmm") ? 64 : strstr(ops, "%ymm") ? 32 : strstr(ops, "%xmm") ? 16 : 0;
}

/* Bytes one memory operand moves: the scalar or broadcast size, or the register width. */
static unsigned da_mem_size(const struct insn *in, const char *memop, char ops[][64], unsigned n)
{
	size_t len = strlen(in->mn);
	unsigned w = da_reg_width(in->ops);
	const char *b = strstr(memop, "{1to");

	if (b && w)
		return w / (unsigned)strtoul(b + 4, NULL, 10);
	if (len >= 2 && !strcmp(in->mn + len - 2, "sd"))
		return 8;
	if (len >= 2 && !strcmp(in->mn + len - 2, "ss"))
		return 4;
	if (strstr(in->mn, "128") || strstr(in->mn, "32x4") || strstr(in->mn, "64x2"))
		return 16;
	if (strstr(in->mn, "32x8") || strstr(in->mn, "64x4"))
		return 32;
	if (w)
		return w;
	/* A general register operand says the size; else the mnemonic's suffix (movl $0,(%rax)). */
	for (unsigned i = 0; i < n; i++) {
		unsigned bits;
		int r = da_reg(ops[i], strlen(ops[i]), &bits);
		if (r >= 0 && r < DA_RIP)
			return bits / 8;
	}
	switch (in->mn[len ? len - 1 : 0]) {
	case 'b':
		return 1;
	case 'w':
		return 2;
	case 'l':
		return 4;
	default:
		return 8;
	}
}

/* The memory operand of in, if any (x86 has at most one). frame: %rbp is the frame pointer. */
static struct da_mem da_mem_of(const struct insn *in, bool frame)
{
	struct da_mem m = {.base = DA_NOREG, .index = DA_NOREG, .scale = 1};
	char ops[4][64];
	unsigned n = da_split(in->ops, ops, 4);

	if (da_starts(in->mn, "lea") || da_starts(in->mn, "nop") || in->mn[0] == 'j' ||
	    da_starts(in->mn, "call"))
		return m;
	for (unsigned i = 0; i < n; i++) {
		char *lp = strchr(ops[i], '(');
		bool seg = strstr(ops[i], "%fs:") || strstr(ops[i], "%gs:");
		if (!lp && !seg)
			continue;
		m.present = true;
		m.dest = i + 1 == n && n > 1;
		m.size = da_mem_size(in, ops[i], ops, n);
		if (seg || !lp) {
			m.local = true;
			return m;
		}
		m.disp = lp == ops[i] ? 0 : strtol(ops[i], NULL, 0);
		char *p = lp + 1;
		size_t k = strcspn(p, ",)");
		unsigned bits;
		m.base = k ? da_reg(p, k, &bits) : DA_NOREG;
		p += k;
		if (*p == ',') {
			p++;
			k = strcspn(p, ",)");
			m.index = da_reg(p, k, &bits);
			p += k;
			if (*p == ',')
				m.scale = strtol(p + 1, NULL, 10);
		}
		m.local = m.base == DA_RSP || m.base == DA_RIP || (frame && m.base == DA_RBP);
		return m;
	}
	return m;
}

/* ---- counting ---- */

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

/* xor of a register with itself: the zeroing idiom, not arithmetic. */
static bool da_zeroing(const struct insn *in)
{
	const char *c = strchr(in->ops, ',');

	if (!strstr(in->mn, "xor") || !c)
		return false;
	size_t n = (size_t)(c - in->ops);
	return !strncmp(in->ops, c + 1, n) && (c[1 + n] == '\0' || c[1 + n] == ',');
}

/* A compare or test: its last operand is read, not written. */
static bool da_reads_only(const char *mn)
{
	const char *m = mn[0] == 'v' ? mn + 1 : mn;

	return da_starts(m, "cmp") || da_starts(m, "test") || da_starts(m, "ucomi") ||
	       da_starts(m, "comi") || da_starts(m, "bt") || da_starts(m, "ptest") ||
	       da_starts(m, "prefetch");
}

/* Writes its memory destination without reading it (a move or store); else read-modify-write. */
static bool da_pure_store(const char *mn)
{
	const char *m = mn[0] == 'v' ? mn + 1 : mn;

	return da_starts(m, "mov") || da_starts(m, "extract") || da_starts(m, "pextr") ||
	       da_starts(m, "pmov") || da_starts(m, "compress") || da_starts(m, "pcompress") ||
	       da_starts(m, "scatter") || da_starts(m, "pscatter") || da_starts(m, "set") ||
	       da_starts(m, "stos") || da_starts(m, "cvt");
}

/* Operands that only an EVEX encoding can name: registers 16-31 of xmm/ymm, a mask register. */
static bool da_evex_only(const char *ops)
{
	for (const char *p = ops; (p = strchr(p, '%')); p++) {
		if ((p[1] == 'x' || p[1] == 'y') && p[2] == 'm' && p[3] == 'm' &&
		    strtol(p + 4, NULL, 10) >= 16)
			return true;
		if (p[1] == 'k' && p[2] >= '0' && p[2] <= '7' && !isalnum((unsigned char)p[3]))
			return true;
	}
	return false;
}

static void da_count(const struct insn *in, bool frame, struct disasm_loop *o)
{
	bool fma;
	unsigned w = da_reg_width(in->ops);

	o->ninsns++;
	o->calls += da_starts(in->mn, "call");
	if (w && in->mn[0] == 'v') {
		o->vex++;
		o->evex += w == 64 || da_evex_only(in->ops);
	}
	if (da_zeroing(in))
		return;
	o->width = w > o->width ? w : o->width;
	if (strstr(in->mn, "gather"))
		o->has_gather = true;
	if (da_fp_arith(in->mn, &fma)) {
		size_t n = strlen(in->mn);
		bool packed = in->mn[n - 2] == 'p';
		unsigned lanes = packed ? w / (in->mn[n - 1] == 'd' ? 8 : 4) : 1;
		o->fp_ops++;
		o->fmas += fma;
		o->packed += packed;
		o->flops += (double)lanes * (fma ? 2 : 1);
	} else if (da_packed_int(in->mn)) {
		o->packed++;
	}
	struct da_mem m = da_mem_of(in, frame);
	if (!m.present || da_starts(in->mn, "prefetch") || strstr(in->mn, "gather"))
		return;
	if (m.local) {
		o->local_bytes += m.size;
		return;
	}
	o->mem_bytes += m.size;
	if (m.dest && !da_reads_only(in->mn))
		o->store_bytes += m.size;
}

/* ---- the control-flow graph ---- */

struct da_cfg {
	size_t nb, words;
	size_t *start, *end; /* block b: instructions [start, end) of the function */
	int (*succ)[2];      /* up to two successors, -1 for none */
	uint64_t *dom;       /* nb bitsets of words each: the blocks that dominate b */
	bool *reach;         /* reachable from the entry */
	const struct insn *in;
	size_t n;
};

#define DA_BIT(set, i) (((set)[(i) / 64] >> ((i) % 64)) & 1)
#define DA_SET(set, i) ((set)[(i) / 64] |= (uint64_t)1 << ((i) % 64))

/* The index of the instruction at addr in the function, or -1. */
static long da_find(const struct insn *in, size_t n, unsigned long addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (in[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && in[lo].addr == addr ? (long)lo : -1;
}

static bool da_ends_flow(const char *mn)
{
	return da_starts(mn, "ret") || da_starts(mn, "ud2") || da_starts(mn, "hlt");
}

static void da_cfg_free(struct da_cfg *g)
{
	free(g->start);
	free(g->end);
	free(g->succ);
	free(g->dom);
	free(g->reach);
}

static bool da_cfg_build(const struct insn *in, size_t n, struct da_cfg *g)
{
	bool *leader = calloc(n + 1, sizeof(*leader));
	size_t *blk = calloc(n + 1, sizeof(*blk));

	memset(g, 0, sizeof(*g));
	g->in = in;
	g->n = n;
	if (!leader || !blk || !n)
		goto fail;
	leader[0] = true;
	for (size_t i = 0; i < n; i++) {
		long t = in[i].has_target ? da_find(in, n, in[i].target) : -1;
		if (t >= 0)
			leader[t] = true;
		if (in[i].mn[0] == 'j' || da_ends_flow(in[i].mn))
			leader[i + 1] = true;
	}
	for (size_t i = 0; i < n; i++)
		g->nb += leader[i];
	g->words = (g->nb + 63) / 64;
	g->start = calloc(g->nb, sizeof(*g->start));
	g->end = calloc(g->nb, sizeof(*g->end));
	g->succ = calloc(g->nb, sizeof(*g->succ));
	g->dom = calloc(g->nb * g->words, sizeof(*g->dom));
	g->reach = calloc(g->nb, sizeof(*g->reach));
	if (!g->start || !g->end || !g->succ || !g->dom || !g->reach)
		goto fail;
	size_t b = 0;
	for (size_t i = 0; i < n; i++) {
		if (leader[i] && i) {
			g->end[b++] = i;
			g->start[b] = i;
		}
		blk[i] = b;
	}
	g->end[b] = n;
	for (b = 0; b < g->nb; b++) {
		const struct insn *last = &in[g->end[b] - 1];
		long t = last->has_target ? da_find(in, n, last->target) : -1;
		bool uncond = !strcmp(last->mn, "jmp") || da_starts(last->mn, "jmp");
		g->succ[b][0] = g->succ[b][1] = -1;
		if (da_ends_flow(last->mn))
			continue;
		if (last->mn[0] == 'j' && t >= 0)
			g->succ[b][0] = (int)blk[t];
		if ((last->mn[0] != 'j' || !uncond) && b + 1 < g->nb)
			g->succ[b][1] = (int)(b + 1);
	}
	free(leader);
	free(blk);
	return true;
fail:
	free(leader);
	free(blk);
	da_cfg_free(g);
	return false;
}

/* Reachability from the entry, then dominators by the iterative data-flow method. */
static void da_cfg_dominators(struct da_cfg *g)
{
	size_t *stack = calloc(g->nb, sizeof(*stack)), sp = 0;
	uint64_t *tmp = calloc(g->words, sizeof(*tmp));

	if (!stack || !tmp) {
		free(stack);
		free(tmp);
		return;
	}
	g->reach[0] = true;
	stack[sp++] = 0;
	while (sp) {
		size_t b = stack[--sp];
		for (int k = 0; k < 2; k++) {
			int s = g->succ[b][k];
			if (s >= 0 && !g->reach[s]) {
				g->reach[s] = true;
				stack[sp++] = (size_t)s;
			}
		}
	}
	for (size_t b = 0; b < g->nb; b++)
		for (size_t w = 0; w < g->words; w++)
			g->dom[b * g->words + w] = b ? ~(uint64_t)0 : 0;
	DA_SET(g->dom, 0);
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t b = 1; b < g->nb; b++) {
			if (!g->reach[b])
				continue;
			for (size_t w = 0; w < g->words; w++)
				tmp[w] = ~(uint64_t)0;
			for (size_t p = 0; p < g->nb; p++)
				if (g->reach[p] &&
				    (g->succ[p][0] == (int)b || g->succ[p][1] == (int)b))
					for (size_t w = 0; w < g->words; w++)
						tmp[w] &= g->dom[p * g->words + w];
			DA_SET(tmp, b);
			if (memcmp(tmp, g->dom + b * g->words, g->words * sizeof(*tmp))) {
				memcpy(g->dom + b * g->words, tmp, g->words * sizeof(*tmp));
				changed = true;
			}
		}
	}
	free(stack);
	free(tmp);
}

/*
 * The natural loop of the back edge u -> h: h, u and every block that reaches u without passing
 * h, as a bitset. One loop per back edge, not per header: GCC rotates a loop of passes so that
 * it jumps straight into the element loop's header, and merging the two would hide the element
 * loop inside the pass loop.
 */
static void da_loop_body(const struct da_cfg *g, size_t h, size_t u, uint64_t *body)
{
	size_t *stack = calloc(g->nb, sizeof(*stack)), sp = 0;

	memset(body, 0, g->words * sizeof(*body));
	if (!stack)
		return;
	DA_SET(body, h);
	if (u != h) {
		DA_SET(body, u);
		stack[sp++] = u;
	}
	while (sp) {
		size_t x = stack[--sp];
		for (size_t p = 0; p < g->nb; p++)
			if (g->reach[p] && !DA_BIT(body, p) &&
			    (g->succ[p][0] == (int)x || g->succ[p][1] == (int)x)) {
				DA_SET(body, p);
				stack[sp++] = p;
			}
	}
	free(stack);
}

/* Is a a strict subset of b (bitsets of words words)? */
static bool da_strict_subset(const uint64_t *a, const uint64_t *b, size_t words)
{
	bool smaller = false;

	for (size_t w = 0; w < words; w++) {
		if (a[w] & ~b[w])
			return false;
		smaller |= a[w] != b[w];
	}
	return smaller;
}

/* ---- elements per trip ---- */

struct da_range {
	long lo, hi;
};

struct da_stream {
	int base, index;
	long scale;
	struct da_range ld[64], st[64];
	unsigned nld, nst;
};

static int da_range_cmp(const void *a, const void *b)
{
	const struct da_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Bytes covered by the union of n ranges (sorted in place). */
static double da_union(struct da_range *r, unsigned n)
{
	double total = 0;
	long lo = 0, hi = 0;

	qsort(r, n, sizeof(*r), da_range_cmp);
	for (unsigned i = 0; i < n; i++) {
		if (i && r[i].lo <= hi) {
			hi = r[i].hi > hi ? r[i].hi : hi;
			continue;
		}
		total += (double)(hi - lo);
		lo = r[i].lo;
		hi = r[i].hi;
	}
	return total + (double)(hi - lo);
}

/* Per general register: 0 untouched in the loop, 1 a constant step per trip, 2 anything else. */
struct da_ind {
	int state[16];
	long step[16];
};

static void da_induction(const struct insn *in, struct da_ind *ind)
{
	char ops[4][64];
	unsigned n = da_split(in->ops, ops, 4), bits;

	if (!n || da_reads_only(in->mn) || da_starts(in->mn, "push") || in->mn[0] == 'j')
		return;
	int r = da_reg(ops[n - 1], strlen(ops[n - 1]), &bits);
	if (r < 0 || r >= DA_RIP)
		return;
	long step = 0;
	bool ok = false;
	if ((da_starts(in->mn, "add") || da_starts(in->mn, "sub")) && n == 2 && ops[0][0] == '$') {
		long long v = (long long)strtoull(ops[0] + 1, NULL, 0);
		if (bits == 32)
			v = (int32_t)(uint32_t)v;
		step = in->mn[0] == 'a' ? (long)v : -(long)v;
		ok = true;
	} else if ((!strcmp(in->mn, "inc") || !strcmp(in->mn, "dec") || da_starts(in->mn, "incq") ||
	            da_starts(in->mn, "decq")) &&
	           n == 1) {
		step = in->mn[0] == 'i' ? 1 : -1;
		ok = true;
	} else if (da_starts(in->mn, "lea") && n == 2) {
		char *lp = strchr(ops[0], '(');
		size_t k = lp ? strcspn(lp + 1, ",)") : 0;
		if (lp && lp[1 + k] == ')' && da_reg(lp + 1, k, &bits) == r) {
			step = lp == ops[0] ? 0 : strtol(ops[0], NULL, 0);
			ok = true;
		}
	}
	if (!ok || ind->state[r] == 2) {
		ind->state[r] = 2;
		return;
	}
	ind->state[r] = 1;
	ind->step[r] += step;
}

/* The bytes a register moves the address per trip; false when unknown. */
static bool da_reg_step(const struct da_ind *ind, int r, long *step)
{
	if (r == DA_NOREG) {
		*step = 0;
		return true;
	}
	if (r < 0 || r >= DA_RIP || ind->state[r] == 2)
		return false;
	*step = ind->state[r] ? ind->step[r] : 0;
	return true;
}

/* Records in s (ns streams so far, at most 32) the memory access of in, at its offset from the
 * registers' values at the top of the trip; cur holds the steps of the instructions before it
 * and takes in's own. */
static void da_access(struct da_stream *s, unsigned *ns, const struct insn *in, bool frame,
                      struct da_ind *cur)
{
	struct da_mem m = da_mem_of(in, frame);

	da_induction(in, cur);
	if (m.present) {
		long sb = 0, si = 0;
		da_reg_step(cur, m.base, &sb);
		da_reg_step(cur, m.index, &si);
		/* (the instruction's own write, if it bumps its base, comes after) */
		struct da_ind one = {0};
		da_induction(in, &one);
		long ob = 0, oi = 0;
		da_reg_step(&one, m.base, &ob);
		da_reg_step(&one, m.index, &oi);
		m.disp += (sb - ob) + (si - oi) * m.scale;
	}
	if (!m.present || m.local || m.index == DA_VECREG || da_starts(in->mn, "prefetch"))
		return;
	unsigned k = 0;
	while (k < *ns && !(s[k].base == m.base && s[k].index == m.index && s[k].scale == m.scale))
		k++;
	if (k == *ns) {
		if (*ns == 32)
			return;
		s[k].base = m.base;
		s[k].index = m.index;
		s[k].scale = m.scale;
		(*ns)++;
	}
	struct da_range r = {m.disp, m.disp + (long)m.size};
	bool st = m.dest && !da_reads_only(in->mn);
	if (st && s[k].nst < 64)
		s[k].st[s[k].nst++] = r;
	if ((!st || !da_pure_store(in->mn)) && s[k].nld < 64)
		s[k].ld[s[k].nld++] = r;
}

static void da_elems(const struct da_cfg *g, const uint64_t *body, size_t head, bool frame,
                     unsigned elem, struct disasm_loop *o)
{
	struct da_ind ind = {0};
	struct da_stream *s = calloc(32, sizeof(*s));
	unsigned ns = 0;
	double adv_max = 0, span_max = 0;

	o->elems_from = "none";
	if (!s)
		return;
	for (size_t b = 0; b < g->nb; b++)
		if (DA_BIT(body, b))
			for (size_t i = g->start[b]; i < g->end[b]; i++)
				da_induction(&g->in[i], &ind);
	/* In program order from the header, each access at its offset from the registers' values
	 * at the top of the trip: a pointer bumped mid-loop does not shift the ranges after it. */
	struct da_ind cur = {0};
	for (size_t bb = 0; bb < g->nb; bb++) {
		size_t b = (head + bb) % g->nb;
		if (!DA_BIT(body, b))
			continue;
		for (size_t i = g->start[b]; i < g->end[b]; i++)
			da_access(s, &ns, &g->in[i], frame, &cur);
	}
	for (unsigned k = 0; k < ns; k++) {
		long sb, si;
		struct da_range all[128];
		unsigned na = 0;
		if (da_reg_step(&ind, s[k].base, &sb) && da_reg_step(&ind, s[k].index, &si)) {
			double adv = labs(sb + si * s[k].scale);
			adv_max = adv > adv_max ? adv : adv_max;
		}
		memcpy(all, s[k].ld, s[k].nld * sizeof(*all));
		na = s[k].nld;
		memcpy(all + na, s[k].st, s[k].nst * sizeof(*all));
		na += s[k].nst;
		double span = da_union(all, na);
		span_max = span > span_max ? span : span_max;
		o->load_span += s[k].nld ? da_union(s[k].ld, s[k].nld) : 0;
		o->store_span += s[k].nst ? da_union(s[k].st, s[k].nst) : 0;
	}
	if (adv_max > 0) {
		o->elems = adv_max / elem;
		o->elems_from = "step";
	} else if (span_max > 0) {
		o->elems = span_max / elem;
		o->elems_from = "ranges";
	}
	free(s);
}

/* Does the function set up %rbp as its frame pointer (mov %rsp,%rbp)? */
static bool da_frame(const struct insn *in, size_t n)
{
	for (size_t i = 0; i < n && i < 16; i++)
		if (da_starts(in[i].mn, "mov") && !strcmp(in[i].ops, "%rsp,%rbp"))
			return true;
	return false;
}

bool disasm_loop(const struct disasm *d, const char *name, unsigned elem_bytes,
                 struct disasm_loop *out)
{
	const struct func *fn = NULL;
	struct da_cfg g;

	memset(out, 0, sizeof(*out));
	out->elems_from = "none";
	for (size_t i = 0; i < d->nfuncs && !fn; i++)
		if (!strcmp(d->funcs[i].name, name))
			fn = &d->funcs[i];
	if (!fn || !da_cfg_build(d->insns + fn->first, fn->n, &g))
		return false;
	da_cfg_dominators(&g);
	bool frame = da_frame(g.in, g.n), found = false;
	/* Every back edge u -> h (h dominates u) and its natural loop. */
	size_t nl = 0, *head = calloc(2 * g.nb + 1, sizeof(*head));
	uint64_t *bodies = calloc((2 * g.nb + 1) * g.words, sizeof(*bodies));
	for (size_t u = 0; head && bodies && u < g.nb; u++)
		for (int k = 0; k < 2 && g.reach[u]; k++) {
			int h = g.succ[u][k];
			if (h < 0 || !DA_BIT(g.dom + u * g.words, (size_t)h) ||
			    (k == 1 && g.succ[u][0] == h))
				continue;
			head[nl] = (size_t)h;
			da_loop_body(&g, (size_t)h, u, bodies + nl * g.words);
			nl++;
		}
	double best_score = 0;
	size_t best = 0;
	for (size_t l = 0; head && bodies && l < nl; l++) {
		const uint64_t *body = bodies + l * g.words;
		size_t h = head[l];
		/* Innermost: no other loop nested inside. */
		bool inner = true;
		for (size_t m = 0; m < nl && inner; m++)
			inner = !da_strict_subset(bodies + m * g.words, body, g.words);
		if (!inner)
			continue;
		/* The hot loop: an innermost loop that walks memory with a constant step (the
		 * element loop, not a loop of passes around unrolled tail code), and of those the
		 * one that does the most work per trip, lanes counted (the vector main loop, not
		 * its scalar remainder). Loops that touch no memory (peak) compete on work alone.
		 */
		struct disasm_loop one = {0};
		for (size_t b = 0; b < g.nb; b++)
			if (DA_BIT(body, b))
				for (size_t i = g.start[b]; i < g.end[b]; i++)
					da_count(&g.in[i], frame, &one);
		da_elems(&g, body, h, frame, 1, &one);
		double score = one.flops + one.packed + one.mem_bytes / 4 +
		               (strcmp(one.elems_from, "step") ? 0 : 1e9);
		if (score > best_score || !found) {
			best_score = score;
			best = l;
			found = true;
		}
	}
	if (found) {
		const uint64_t *body = bodies + best * g.words;
		for (size_t b = 0; b < g.nb; b++) {
			if (!DA_BIT(body, b))
				continue;
			out->nblocks++;
			for (size_t i = g.start[b]; i < g.end[b]; i++)
				da_count(&g.in[i], frame, out);
		}
		da_elems(&g, body, head[best], frame, elem_bytes ? elem_bytes : 1, out);
	}
	free(head);
	free(bodies);
	da_cfg_free(&g);
	return found;
}
