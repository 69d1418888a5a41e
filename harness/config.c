/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/fileio.h"
#include "harness/json.h"
#include "harness/lessons.h"
#include "harness/param.h"

_Static_assert(LAB_LESSON_CLAIM_MAX == LAB_CFG_VALUE_MAX - 1,
               "a run.json claim may be as long as a config value");

/* State of one file being read: the line reader's position and what the handler needs. */
struct cfg_loader {
	struct lab_cfg *cfg;
	struct lab_diag *d;
	const char *file; /* owned by cfg->files */
	const char *text;
	size_t len, pos;
	int line;                    /* number of the line last handed to libinih */
	bool cont;                   /* that line continues the previous value */
	bool after_key;              /* the previous non-blank line was a key or a continuation */
	struct lab_cfg_section *cur; /* section of the last [header], NULL before any */
	bool bad_header;             /* the last header was unreadable: its keys are not reported */
	size_t skip;                 /* leading bytes of the line to hide from libinih */
	size_t keep;                 /* bytes of the line to show it (an inline comment cut off) */
	bool too_long;               /* the value being continued was reported too long */
	bool oom;
};

/*
 * Room for item n of an array of n items that only this file grows: the capacity is implicit
 * (8, then the next power of two), so growth is geometric without a capacity field. A realloc
 * by one item each time is quadratic in copies where realloc cannot grow in place (60 k keys
 * took minutes under AddressSanitizer). Returns the array, or NULL (p untouched) on ENOMEM.
 */
static void *cfg_grow(void *p, size_t n, size_t elem)
{
	if (n >= 8 && (n & (n - 1)))
		return p;
	if (n > 0 && n < 8)
		return p;
	return realloc(p, (n ? 2 * n : 8) * elem);
}

/* The owner under which a section name is indexed: [global] and [lessons] are per file (each
 * once in its file, as every section), the rest global. */
static bool cfg_per_file(const char *name)
{
	return !strcmp(name, "global") || !strcmp(name, "lessons");
}

static unsigned cfg_owner(const struct lab_cfg *cfg, const char *file, const char *name)
{
	if (!cfg_per_file(name))
		return 0;
	for (unsigned i = 0; i < cfg->nfiles; i++)
		if (cfg->files[i] == file || !strcmp(cfg->files[i], file))
			return i + 1;
	return ~0u;
}

/* The first section named name ([global]: of file), or NULL. */
static struct lab_cfg_section *cfg_find(const struct lab_cfg *cfg, const char *file,
                                        const char *name)
{
	unsigned i;

	if (!lab_strmap_get(&cfg->sec_index, cfg_owner(cfg, file, name), name, &i))
		return NULL;
	return &cfg->sec[i];
}

const struct lab_cfg_section *lab_cfg_global(const struct lab_cfg *cfg, const char *file)
{
	return cfg_find(cfg, file, "global");
}

bool lab_cfg_name_ok(const char *name)
{
	if (!*name)
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
			return false;
	return true;
}

/* A [header] line: validate the name, find or add its section. */
static void cfg_header(struct cfg_loader *ld, const char *start, size_t n)
{
	const char *close = memchr(start, ']', n);
	struct lab_cfg *cfg = ld->cfg;

	ld->cur = NULL;
	ld->bad_header = false;
	if (!close) {
		ld->bad_header = true;
		lab_diag_add(ld->d, "%s:%d: section header without ']' (write [name])", ld->file,
		             ld->line);
		return;
	}
	char *name = strndup(start + 1, (size_t)(close - start - 1));
	if (!name) {
		ld->oom = true;
		return;
	}
	const char *rest = close + 1;
	while (rest < start + n && isspace((unsigned char)*rest))
		rest++;
	if (rest < start + n && *rest != ';' && *rest != '#')
		lab_diag_add(ld->d,
		             "%s:%d: [%s]: text after the section header (allowed only a ; or # "
		             "comment)",
		             ld->file, ld->line, name);
	if (!lab_cfg_name_ok(name)) {
		lab_diag_add(ld->d,
		             "%s:%d: [%s]: bad section name (allowed letters, digits, '_', '.', "
		             "'-')",
		             ld->file, ld->line, name);
	}
	struct lab_cfg_section *old = cfg_find(cfg, ld->file, name);
	if (old && cfg_per_file(name)) {
		/* its keys still go into the first one, so each is checked */
		lab_diag_add(ld->d, "%s:%d: [%s]: duplicate section (first at line %d)", ld->file,
		             ld->line, name, old->line);
		ld->cur = old;
		free(name);
		return;
	}
	if (old && old->file == ld->file)
		lab_diag_add(ld->d, "%s:%d: [%s]: duplicate section (first at line %d)", ld->file,
		             ld->line, name, old->line);
	else if (old)
		lab_diag_add(ld->d, "%s:%d: [%s]: duplicate section (first at %s:%d)", ld->file,
		             ld->line, name, old->file, old->line);
	struct lab_cfg_section *grown = cfg_grow(cfg->sec, cfg->nsec, sizeof(*cfg->sec));
	if (!grown) {
		free(name);
		ld->oom = true;
		return;
	}
	cfg->sec = grown;
	ld->cur = &cfg->sec[cfg->nsec++];
	*ld->cur = (struct lab_cfg_section){.name = name, .file = ld->file, .line = ld->line};
	if (!old &&
	    lab_strmap_put(&cfg->sec_index, cfg_owner(cfg, ld->file, name), name, cfg->nsec - 1))
		ld->oom = true;
}

/* True when s[i] starts an inline comment: a ';' or '#' after a blank. */
static bool cfg_comment_at(const char *s, size_t i)
{
	return (s[i] == ';' || s[i] == '#') && i > 0 && isspace((unsigned char)s[i - 1]);
}

/* Where the inline comment of s[0..n) starts, or n when it has none. */
static size_t cfg_comment(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cfg_comment_at(s, i))
			return i;
	return n;
}

/*
 * Where libinih splits a key line: the first '=' or ':' before an inline comment. Returns n
 * when there is none.
 */
static size_t cfg_separator(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=' || s[i] == ':')
			return i;
		if (cfg_comment_at(s, i))
			return n;
	}
	return n;
}

/* A line refused whole (its bytes, its length, its syntax): what it would have said is unknown, so
 * no "missing kernel" or "key outside any section" follows from it. */
static void cfg_line_refused(struct cfg_loader *ld, const char *s, const char *end)
{
	if (s < end && *s == '[') {
		ld->cur = NULL;
		ld->bad_header = true;
	} else if (ld->cur) {
		ld->cur->refused = true;
	}
	ld->after_key = false;
}

unsigned lab_cfg_kernel_distance(const char *key, size_t len)
{
	char fold[LAB_CFG_LINE_MAX + 1];
	size_t n = 0;

	for (size_t i = 0; i < len && n < sizeof(fold) - 1; i++)
		if ((unsigned char)key[i] < 0x80)
			fold[n++] = (char)tolower((unsigned char)key[i]);
	fold[n] = '\0';
	return lab_edit_distance(fold, "kernel");
}

/* A key line (s .. end without the blanks around it): a key, its separator, a section. */
static bool cfg_key_line(struct cfg_loader *ld, const char *s, const char *end)
{
	size_t sep = cfg_separator(s, (size_t)(end - s));
	if (sep == (size_t)(end - s)) {
		lab_diag_add(ld->d, "%s:%d: expected 'key = value', got '%.*s'", ld->file, ld->line,
		             (int)(end - s > 40 ? 40 : end - s), s);
		/* 'kernel noop' is said once, not also missing; 'threads 2' says nothing of one */
		size_t word = 0;
		while (s + word < end && s[word] != ' ' && s[word] != '\t')
			word++;
		if (lab_cfg_kernel_distance(s, word) <= 2)
			cfg_line_refused(ld, s, end);
		return false;
	}
	if (sep == 0) {
		lab_diag_add(ld->d, "%s:%d: '%.*s': no key before '%c' (write key = value)",
		             ld->file, ld->line, (int)(end - s > 40 ? 40 : end - s), s, s[0]);
		cfg_line_refused(ld, s, end);
		return false;
	}
	if (!ld->cur) {
		if (!ld->bad_header)
			lab_diag_add(ld->d,
			             "%s:%d: key outside any section (start one with [name])",
			             ld->file, ld->line);
		return false;
	}
	/* libinih splits at ':' too; a ':' inside a value (list:0,1) stands after the '='. Still
	 * read, so the key is not reported missing as well. */
	if (s[sep] == ':')
		lab_diag_add(ld->d,
		             "%s:%d: '%.*s': ':' between a key and its value (write key = value)",
		             ld->file, ld->line, (int)(end - s > 40 ? 40 : end - s), s);
	ld->after_key = true;
	return true;
}

/*
 * Checks the bytes of a raw line (s .. end: without the blanks around it). A CR before its end
 * or a NUL byte refuses the line: returns false, the line is hidden. A vertical tab or form feed
 * outside a comment is one error, but the line is still read (libinih takes both for blanks,
 * and so do the value parsers: "threads = 1\v" would read as 1); blanks are spaces and tabs,
 * and any other control byte is an error where it stands in a name or a value.
 */
static bool cfg_line_bytes(struct cfg_loader *ld, const char *raw, size_t n, const char *s,
                           const char *end)
{
	if (memchr(raw, '\r', n)) {
		lab_diag_add(ld->d,
		             "%s:%d: carriage return inside a line (allowed line endings: LF or "
		             "CRLF; save the file with Unix or DOS line endings)",
		             ld->file, ld->line);
		return false;
	}
	if (memchr(raw, '\0', n)) {
		lab_diag_add(ld->d, "%s:%d: line holds a NUL byte (a config is plain text)",
		             ld->file, ld->line);
		return false;
	}
	/* what comes before the comment, trailing blanks included */
	size_t code = n, c = cfg_comment(s, (size_t)(end - s));
	if (s < end && (*s == ';' || *s == '#'))
		code = (size_t)(s - raw); /* a comment line: its leading blanks */
	else if (c < (size_t)(end - s))
		code = (size_t)(s - raw) + c;
	for (size_t i = 0; i < code; i++) {
		if (raw[i] == '\v' || raw[i] == '\f') {
			lab_diag_add(
			    ld->d, "%s:%d: %s outside a comment (allowed blanks: spaces and tabs)",
			    ld->file, ld->line,
			    raw[i] == '\v' ? "vertical tab (\\x0b)" : "form feed (\\x0c)");
			break;
		}
	}
	return true;
}

/* How many bytes of invisible characters a paste may leave s starting with (the no-break and
 * other Unicode spaces, zero-width ones, marks, a BOM: what messages print escaped, with
 * blanks, vertical tabs or form feeds between them), *cp the first one's code point; 0: none.
 * Before a header they hid it: the keys below went to the section above. */
static size_t cfg_invisible(const char *s, const char *end, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s, *e = (const unsigned char *)end;
	size_t n;

	*cp = 0;
	while (u < e) {
		if (*u == ' ' || *u == '\t' || *u == '\v' || *u == '\f') {
			u++;
			continue;
		}
		/* the lead byte's length first: the text need not end in a NUL (a file's last
		 * byte 0xd9 was read past) */
		n = *u >= 0xF0 ? 4 : *u >= 0xE0 ? 3 : *u >= 0xC2 ? 2 : 0;
		if (!n || n > (size_t)(e - u) || lab_utf8_len(u) != n || !lab_utf8_control_cp(u, n))
			break;
		if (!*cp)
			*cp = lab_utf8_control_cp(u, n);
		u += n;
	}
	return *cp ? (size_t)(u - (const unsigned char *)s) : 0;
}

/*
 * Classifies one raw line before libinih sees it: header, continuation, key line, or a syntax
 * error that libinih would report only by number. Returns false when the line must be hidden
 * from libinih (it is replaced by an empty line).
 */
static bool cfg_scan_line(struct cfg_loader *ld, const char *raw, size_t n)
{
	const char *s = raw, *end = raw + n;

	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	while (s < end && isspace((unsigned char)*s))
		s++;
	bool indented = s > raw;

	ld->cont = false;
	ld->skip = 0;
	ld->keep = n;
	if (ld->line == 1 && end - s >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		s += 3;
	if (!cfg_line_bytes(ld, raw, n, s, end)) {
		cfg_line_refused(ld, s, end);
		return false;
	}
	/* Blank lines and comments do not end a multi-line value in libinih either; a long one is
	 * hidden rather than split. */
	if (s == end || *s == ';' || *s == '#')
		return n <= LAB_CFG_LINE_MAX;
	/* What counts is the line before an inline comment, as for a comment line: a long
	 * comment after `kernel = noop` lost the kernel. */
	size_t content = (size_t)(s - raw) + cfg_comment(s, (size_t)(end - s));
	if (content > LAB_CFG_LINE_MAX) {
		lab_diag_add(ld->d,
		             "%s:%d: line too long (%zu characters before any comment; allowed at "
		             "most %d)",
		             ld->file, ld->line, content, LAB_CFG_LINE_MAX);
		cfg_line_refused(ld, s, end);
		return false;
	}
	ld->keep = content;
	unsigned cp = 0;
	size_t inv = cfg_invisible(s, end, &cp);
	bool hidden = inv && s + inv < end && s[inv] == '[';
	/* what comes before a header: a vertical tab or form feed there was said already
	 * (cfg_line_bytes), and each line is one error */
	size_t pre = (size_t)(s - raw) + (hidden ? inv : 0);
	bool said = memchr(raw, '\v', pre) || memchr(raw, '\f', pre);
	if (hidden && !said)
		lab_diag_add(ld->d,
		             "%s:%d: '%.*s': an invisible character (U+%04X) before the section "
		             "header (delete it: a header starts at column 1)",
		             ld->file, ld->line, (int)(end - s > 40 ? 40 : end - s), s, cp);
	if (hidden)
		s += inv;
	if (*s == '[') {
		/* Still read as a header, so the keys below it are checked against their section;
		 * libinih must not take it for a continuation. */
		if (indented && !hidden && !said)
			lab_diag_add(
			    ld->d,
			    "%s:%d: '%.*s': a section header must start at column 1 (remove "
			    "the indentation; an indented line continues the value above)",
			    ld->file, ld->line, (int)(end - s > 40 ? 40 : end - s), s);
		ld->skip = (size_t)(s - raw);
		cfg_header(ld, s, (size_t)(end - s));
		ld->after_key = false;
		return true;
	}
	/* An inline comment (';' or '#' after a blank) ends a key or continuation line; libinih
	 * knows only ';', and not on a continuation line. */
	ld->keep = (size_t)(s - raw) + cfg_comment(s, (size_t)(end - s));
	if (s > raw && ld->after_key) {
		ld->cont = true;
		return true;
	}
	/* Not a continuation: libinih must not take an indented key line for one either. */
	ld->skip = (size_t)(s - raw);
	ld->after_key = false;
	return cfg_key_line(ld, s, end);
}

/* libinih's reader: hands out one line at a time so the handler knows the line number. */
static char *cfg_reader(char *str, int num, void *stream)
{
	struct cfg_loader *ld = stream;

	while (ld->pos < ld->len) {
		const char *raw = ld->text + ld->pos;
		const char *nl = memchr(raw, '\n', ld->len - ld->pos);
		size_t n = nl ? (size_t)(nl - raw) : ld->len - ld->pos;

		ld->pos += n + (nl ? 1 : 0);
		ld->line++;
		if (n > 0 && raw[n - 1] == '\r')
			n--;
		if (!cfg_scan_line(ld, raw, n))
			n = 0;
		else {
			n = ld->keep < n ? ld->keep : n;
			raw += ld->skip;
			n -= ld->skip;
		}
		LAB_BUG_ON((int)n > num - 2); /* cfg_scan_line rejected longer lines */
		memcpy(str, raw, n);
		str[n] = '\n';
		str[n + 1] = '\0';
		return str;
	}
	return NULL;
}

static int cfg_handler(void *user, const char *section, const char *key, const char *value)
{
	struct cfg_loader *ld = user;
	struct lab_cfg_section *sec = ld->cur;

	(void)section; /* the reader tracked it, with its line */
	if (!sec)
		return 1;
	if (ld->cont && sec->nkv > 0) {
		struct lab_cfg_kv *kv = &sec->kv[sec->nkv - 1];
		char *joined = NULL;
		if (ld->too_long) /* reported once: the rest of the value goes unread */
			return 1;
		if (strlen(kv->value) + strlen(value) >= LAB_CFG_VALUE_MAX) {
			lab_diag_add(
			    ld->d,
			    "%s:%d: [%s] %s: value too long (allowed at most %d characters "
			    "with its continuation lines; it starts at line %d)",
			    ld->file, ld->line, sec->name, kv->key, LAB_CFG_VALUE_MAX, kv->line);
			ld->too_long = kv->reported = true;
			return 1;
		}
		struct lab_cfg_cont *cont = realloc(kv->cont, (kv->ncont + 1) * sizeof(*cont));
		if (cont)
			kv->cont = cont;
		if (!cont || asprintf(&joined, "%s %s", kv->value, value) < 0) {
			ld->oom = true;
			return 1;
		}
		cont[kv->ncont++] =
		    (struct lab_cfg_cont){(unsigned)strlen(kv->value) + 1, ld->line};
		free(kv->value);
		kv->value = joined;
		return 1;
	}
	ld->too_long = false; /* a new key */
	unsigned owner = (unsigned)(sec - ld->cfg->sec), first;
	if (lab_strmap_get(&ld->cfg->key_index, owner, key, &first)) {
		lab_diag_add(ld->d, "%s:%d: [%s] %s = %s: duplicate key (first set at line %d)",
		             ld->file, ld->line, sec->name, key, value, sec->kv[first].line);
		return 1;
	}
	struct lab_cfg_kv *grown = cfg_grow(sec->kv, sec->nkv, sizeof(*sec->kv));
	if (!grown) {
		ld->oom = true;
		return 1;
	}
	sec->kv = grown;
	struct lab_cfg_kv *kv = &sec->kv[sec->nkv];
	*kv = (struct lab_cfg_kv){
	    .key = strdup(key), .value = strdup(value), .file = ld->file, .line = ld->line};
	if (!kv->key || !kv->value) {
		free(kv->key);
		free(kv->value);
		ld->oom = true;
		return 1;
	}
	if (lab_strmap_put(&ld->cfg->key_index, owner, kv->key, sec->nkv))
		ld->oom = true;
	sec->nkv++;
	return 1;
}

static int cfg_append_text(struct lab_cfg *cfg, const char *name, const char *text, size_t len)
{
	size_t old = cfg->text ? strlen(cfg->text) : 0;
	size_t extra = strlen(name) + len + 32;
	char *grown = realloc(cfg->text, old + extra);

	if (!grown)
		return -1;
	cfg->text = grown;
	int n = cfg->nfiles > 1 ? snprintf(grown + old, extra, "; file: %s\n", name) : 0;
	memcpy(grown + old + n, text, len);
	grown[old + n + len] = '\0';
	return 0;
}

int lab_cfg_load_text(struct lab_cfg *cfg, const char *name, const char *text, size_t len,
                      struct lab_diag *d, struct lab_err *err)
{
	char **files = realloc(cfg->files, (cfg->nfiles + 1) * sizeof(*cfg->files));

	if (!files)
		return lab_err_set(err, LAB_ENOMEM, "out of memory reading %s", name);
	cfg->files = files;
	files[cfg->nfiles] = strdup(name);
	if (!files[cfg->nfiles])
		return lab_err_set(err, LAB_ENOMEM, "out of memory reading %s", name);
	cfg->nfiles++;
	if (cfg_append_text(cfg, name, text, len))
		return lab_err_set(err, LAB_ENOMEM, "out of memory reading %s", name);

	struct cfg_loader ld = {
	    .cfg = cfg, .d = d, .file = files[cfg->nfiles - 1], .text = text, .len = len};
	ini_parse_stream(cfg_reader, &ld, cfg_handler, &ld);
	if (ld.oom)
		return lab_err_set(err, LAB_ENOMEM, "out of memory reading %s", name);
	return 0;
}

int lab_cfg_load_file(struct lab_cfg *cfg, const char *path, struct lab_diag *d,
                      struct lab_err *err)
{
	char *buf;
	size_t len;
	int rc = lab_file_read(path, LAB_CFG_FILE_MAX, &buf, &len, err);

	if (rc)
		return rc;
	rc = lab_cfg_load_text(cfg, path, buf, len, d, err);
	free(buf);
	return rc;
}

void lab_cfg_free(struct lab_cfg *cfg)
{
	for (unsigned i = 0; i < cfg->nsec; i++) {
		for (unsigned k = 0; k < cfg->sec[i].nkv; k++) {
			free(cfg->sec[i].kv[k].key);
			free(cfg->sec[i].kv[k].value);
			free(cfg->sec[i].kv[k].cont);
		}
		free(cfg->sec[i].kv);
		free(cfg->sec[i].name);
	}
	for (unsigned i = 0; i < cfg->nset; i++) {
		free(cfg->set[i].key);
		free(cfg->set[i].value);
		free(cfg->set_section[i]);
	}
	for (unsigned i = 0; i < cfg->nfiles; i++)
		free(cfg->files[i]);
	free(cfg->sec);
	free(cfg->set);
	free(cfg->set_section);
	free(cfg->files);
	free(cfg->text);
	lab_strmap_free(&cfg->sec_index);
	lab_strmap_free(&cfg->key_index);
	*cfg = (struct lab_cfg){0};
}

int lab_cfg_kv_line(const struct lab_cfg_kv *kv, unsigned *col)
{
	unsigned i = kv->ncont;

	while (i > 0 && kv->cont[i - 1].at >= *col) /* at is 0-based: column at + 1 starts it */
		i--;
	if (i == 0)
		return kv->line;
	*col -= kv->cont[i - 1].at;
	return kv->cont[i - 1].line;
}
