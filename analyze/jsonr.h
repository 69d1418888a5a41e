/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small JSON reader for run.json: parses a whole document into a tree. Numbers are doubles,
 * strings are UTF-8 with escapes decoded (bytes are passed through as read: the JSON writer
 * repairs invalid UTF-8) (\uXXXX to UTF-8, surrogate pairs joined). Depth is
 * limited to 64 so hostile input cannot exhaust the stack.
 */
#ifndef LAB_ANALYZE_JSONR_H
#define LAB_ANALYZE_JSONR_H

#include <stddef.h>

#include "analyze/err.h"

enum lab_an_json_type {
	LAB_AN_JSON_NULL,
	LAB_AN_JSON_BOOL,
	LAB_AN_JSON_NUM,
	LAB_AN_JSON_STR,
	LAB_AN_JSON_ARR,
	LAB_AN_JSON_OBJ,
};

/* 32 bytes: a run of 100 000 points holds 10 million of them */
struct lab_an_json {
	unsigned type : 3; /* enum lab_an_json_type */
	/* ARR, OBJ: number of items; 0 for the others (a document holds fewer than
	 * LAB_AN_JSON_VALUES_MAX values) */
	unsigned n : 29;
	/* where the value starts (1-based), for FILE:LINE errors; documents are under 4 G lines
	 * (csv.h: LAB_AN_FILE_MAX) */
	unsigned line;
	double num; /* NUM, and BOOL as 0/1; 0 for the others */
	union {
		char *str;                 /* STR: read it only after checking the type */
		struct lab_an_json *items; /* ARR, OBJ (n of them) */
	};
	char **keys; /* OBJ: keys[i] names items[i]; NULL for the others */
};

/* The most values (numbers, strings, booleans, nulls, arrays, objects) a document may hold: a
 * parsed value takes 32 bytes (a string's text its length + 1 more, in the document's text
 * blocks), so this bounds the tree near 1 GB of numbers, whatever the file holds (a hand-made
 * run.json of 100 MB of "0," would take 1.6 GB). A point record holds about 40 values, one
 * per CPU and 8 per counter event: 100,000 points of every counter preset (21 events) hold
 * about 21 million, of 128 threads with the default events about 22 million (2^24 refused
 * both, after the planner had taken them). */
#define LAB_AN_JSON_VALUES_MAX ((size_t)1 << 25)

/*
 * Parses text[0..len-1] into *out (caller frees with lab_an_json_free). Returns 0, or a negative
 * code with "what: line L: cause" in err; name labels the message. A key twice in one object is
 * an error (LAB_EDATA, "NAME:LINE: key "k" again in one object (first at line L)"): readers
 * disagree on which value counts. A document of more than
 * max_values values (at most LAB_AN_JSON_VALUES_MAX) is refused (LAB_EDATA) before it takes more
 * memory; lab_an_json_parse allows LAB_AN_JSON_VALUES_MAX.
 */
int lab_an_json_parse_max(const char *name, const char *text, size_t len, size_t max_values,
                          struct lab_an_json **out, struct lab_err *err);
int lab_an_json_parse(const char *name, const char *text, size_t len, struct lab_an_json **out,
                      struct lab_err *err);
void lab_an_json_free(struct lab_an_json *j);

/* The member key of object j, or NULL when j is not an object or has no such key. Each call
 * adds the number of keys it compared to the calling thread's lab_an_json_compares. */
const struct lab_an_json *lab_an_json_get(const struct lab_an_json *j, const char *key);
/* The string member key, or NULL when absent or not a string. */
const char *lab_an_json_str(const struct lab_an_json *j, const char *key);
/* The number member key, or dflt when absent or not a number. */
double lab_an_json_num(const struct lab_an_json *j, const char *key, double dflt);

/* The number of keys lab_an_json_get has compared on this thread so far: the work of reading
 * run.json, for the tests that check the analyzer stays O(n log n) (issue 19: views scanned
 * every run.json point for each point). Only differences of it mean anything. */
unsigned long long lab_an_json_compares(void);
/* The key comparisons the parser's check for repeated keys has made on this thread so far (a
 * test reads it at n and 4n keys: n log n, never n^2). Only differences of it mean anything. */
unsigned long long lab_an_json_key_compares(void);

#endif
