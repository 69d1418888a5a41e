/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loading what --topology names into hwloc, with the limits checked on the text before hwloc
 * sees it: a synthetic description's PU count is the product of its level arities and its
 * indexes= are small distinct numbers; an XML topology must be a regular file of bounded size,
 * read here (hwloc would read /dev/zero or a FIFO forever), whose OS indices are small enough
 * for the bitmaps hwloc sizes to them and whose objects nest no deeper than hwloc's recursive
 * parser can follow.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/fileio.h"
#include "harness/topo_internal.h"

/* Past the ')' closing the attributes that open at c, or NULL when none closes them (hwloc
 * refuses the description then). */
static const char *topo_synthetic_attrs_end(const char *c)
{
	c = strchr(c, ')');
	return c ? c + 1 : NULL;
}

/*
 * At most LAB_TOPO_PUS_MAX PUs in the synthetic description desc (of --topology spec), before
 * hwloc builds it: 64 64 64 took over a minute and 1.2 GB inside hwloc. The PUs are the product
 * of every level's arity, read as hwloc's parser reads them (hwloc_backend_synthetic_init in
 * topology-synthetic.c): a level is "type:N" or a bare N (strtoul base 0, so 0x40 is 64),
 * attributes in () and attached memory in [] add none. What hwloc would refuse anyway ends the
 * count. Returns 0 or -LAB_ETOPO.
 */
static int topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err)
{
	unsigned long long pus = 1;
	const char *c = desc;

	if (*c == '(' && !(c = topo_synthetic_attrs_end(c)))
		return 0;
	while (c && *c) {
		char *end;

		while (*c == ' ' || *c == '\n')
			c++;
		if (!*c)
			break;
		if (*c == '[') {
			c = strchr(c, ']');
			c = c ? c + 1 : NULL;
			continue;
		}
		/* hwloc takes the arity after the next ':' wherever it is */
		if ((*c < '0' || *c > '9') && !(c = strchr(c, ':')))
			break;
		c += *c == ':';
		unsigned long n = strtoul(c, &end, 0);
		if (end == c || !n)
			break;
		if (n > LAB_TOPO_PUS_MAX || (pus *= n) > LAB_TOPO_PUS_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: more than %d PUs (the lab plans topologies of at "
			                   "most %d PUs)",
			                   spec, LAB_TOPO_PUS_MAX, LAB_TOPO_PUS_MAX);
		c = *end == '(' ? topo_synthetic_attrs_end(end) : end;
	}
	return 0;
}

/*
 * One indexes= value v of len characters: whole numbers 0 .. LAB_TOPO_OS_MAX written in digits,
 * as XML os_index (hwloc's strtoul took 2147483648: a bitmap of 2^31 bits and a crash), and in
 * an explicit list none twice (indexes=0,0 made two PUs one). An interleaving of level names
 * (Core:PU) has no numbers: hwloc keeps what it makes below the level's width. Returns 0 or
 * -LAB_ETOPO.
 */
static int topo_synthetic_index_list(const char *spec, const char *v, size_t len,
                                     struct lab_err *err)
{
	uint64_t seen[(LAB_TOPO_OS_MAX + 1) / 64] = {0};
	bool list = !memchr(v, '*', len) && !memchr(v, ':', len); /* else steps as 4*2:1*2 */
	const char *p = v, *end = v + len;

	if (isalpha((unsigned char)*v))
		return 0;
	for (;;) {
		const char *num = p;
		unsigned long n = 0;

		while (p < end && isdigit((unsigned char)*p) && n <= LAB_TOPO_OS_MAX)
			n = n * 10 + (unsigned)(*p++ - '0');
		if (p == num || n > LAB_TOPO_OS_MAX ||
		    (p < end && !strchr(list ? "," : "*:", *p))) {
			size_t w = strcspn(num, ",*: )");
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: index '%.*s' is out of range (allowed in indexes=: "
			                   "whole numbers 0 .. %d, e.g. indexes=0,2,1,3 or "
			                   "indexes=Core:PU)",
			                   spec, (int)(w < 24 ? w : 24), num, LAB_TOPO_OS_MAX);
		}
		if (list && seen[n / 64] & (1ull << (n % 64)))
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: index %lu appears twice in one indexes= list "
			                   "(allowed: each object its own index)",
			                   spec, n);
		seen[n / 64] |= 1ull << (n % 64);
		if (p == end)
			return 0;
		p++;
	}
}

/* Every indexes= of the synthetic description desc, wherever it is (the root's, a level's, an
 * attached NUMA node's), read to where hwloc ends it. Returns 0 or -LAB_ETOPO. */
static int topo_synthetic_indexes(const char *spec, const char *desc, struct lab_err *err)
{
	static const char attr[] = "indexes=";

	for (const char *c = strstr(desc, attr); c; c = strstr(c + 1, attr)) {
		const char *v = c + sizeof(attr) - 1;
		int rc = topo_synthetic_index_list(spec, v, strcspn(v, " )"), err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * Every os_index="N" of xml is at most LAB_TOPO_OS_MAX: hwloc sizes each object's cpuset or
 * nodeset to the highest index (os_index 2^32 - 1: 512 MB before the lab sees a PU).
 */
static int topo_xml_os_check(const char *spec, const char *xml, struct lab_err *err)
{
	static const char attr[] = "os_index=";

	for (const char *c = strstr(xml, attr); c; c = strstr(c + 1, attr)) {
		const char *v = c + sizeof(attr) - 1;
		unsigned long long n = 0;
		char q = *v == '"' || *v == '\'' ? *v++ : 0;
		int digits = 0;

		/* digits alone: hwloc's strtoul takes " -2" and "+4294967295" as huge indices */
		while (isdigit((unsigned char)*v) && n <= LAB_TOPO_OS_MAX) {
			n = n * 10 + (unsigned)(*v++ - '0');
			digits++;
		}
		if (n > LAB_TOPO_OS_MAX || !digits || (q && *v != q))
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s: an object's os_index is out of range (allowed a whole "
			    "number 0 .. %d)",
			    spec, LAB_TOPO_OS_MAX);
	}
	return 0;
}

/* The '>' ending the markup that opens at c (a quoted value may hold one; a comment ends at
 * "-->", a declaration or processing instruction at "?>", quotes in it or not: an apostrophe
 * in the XML declaration, which hwloc skips, made this read 30,000 nested objects as one
 * quoted value), or NULL; *line counts the newlines passed. */
static const char *topo_xml_tag_end(const char *c, unsigned *line)
{
	bool comment = !strncmp(c, "<!--", 4);
	char q = 0;

	if (c[1] == '?') {
		for (c += 2; *c && strncmp(c, "?>", 2); c++)
			*line += *c == '\n';
		return *c ? c + 1 : NULL;
	}
	for (c += comment ? 4 : 1; *c; c++) {
		if (*c == '\n')
			(*line)++;
		else if (q)
			q = *c == q ? 0 : q;
		else if (!comment && (*c == '"' || *c == '\''))
			q = *c;
		else if (*c == '>' && (!comment || !strncmp(c - 2, "--", 2)))
			return c;
	}
	return NULL;
}

/*
 * No element of xml (read from path) nested more than LAB_TOPO_XML_DEPTH_MAX deep: hwloc's XML
 * import recurses once per nested object, and 20,000 of them (a 2 MB file) overflowed its
 * stack. A real topology is under 20 deep. Returns 0 or -LAB_ETOPO naming path:line.
 */
static int topo_xml_depth_check(const char *path, const char *xml, struct lab_err *err)
{
	unsigned depth = 0, line = 1;

	for (const char *c = xml; *c; c++) {
		if (*c == '\n')
			line++;
		if (*c != '<')
			continue;
		unsigned at = line;

		/* CDATA or an internal DTD subset hold '>' and quotes a simple reader would take
		 * for markup; no topology file has them */
		if (c[1] == '!' && strncmp(c, "<!--", 4) && strncmp(c, "<!DOCTYPE", 9))
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s:%u: markup '<!%.8s': allowed: elements, comments, the "
			    "XML declaration and a DOCTYPE",
			    path, at, c + 2);
		const char *end = topo_xml_tag_end(c, &line);
		/* declarations, comments and closing tags nest nothing */
		bool elem = c[1] != '/' && c[1] != '?' && c[1] != '!';

		if (!end) /* what follows is unread here: hwloc must not read it either */
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s:%u: markup not closed (a '<' without its '>', or a quote "
			    "without its end): allowed: well-formed XML",
			    path, at);
		if (elem && depth >= LAB_TOPO_XML_DEPTH_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s:%u: objects nested more than %d deep (allowed: at "
			                   "most %d)",
			                   path, at, LAB_TOPO_XML_DEPTH_MAX,
			                   LAB_TOPO_XML_DEPTH_MAX);
		if (c[1] == '/')
			depth -= depth > 0;
		else if (elem && end[-1] != '/')
			depth++;
		c = end;
	}
	return 0;
}

/* The XML topology at path: a regular file of at most LAB_TOPO_XML_MAX bytes, every os_index
 * and the nesting depth checked. Returns 0 with *buf (malloc'd, NUL-terminated) and *len, or a
 * negative code naming spec. */
static int topo_xml_read(const char *spec, const char *path, char **buf, size_t *len,
                         struct lab_err *err)
{
	static const char open_fail[] = "cannot open: ";
	int rc = lab_file_read(path, LAB_TOPO_XML_MAX, buf, len, err);
	char rest[LAB_ERR_MSG_MAX];
	size_t n = strlen(path);

	if (!rc) {
		if ((rc = topo_xml_os_check(spec, *buf, err)) < 0 ||
		    (rc = topo_xml_depth_check(path, *buf, err)) < 0) {
			free(*buf);
			*buf = NULL;
		}
		return rc;
	}
	if (rc == -LAB_ENOMEM)
		return rc;
	/* Reword "PATH: what" as "SPEC: what": the user typed the spec. */
	snprintf(rest, sizeof(rest), "%s",
	         strncmp(err->msg, path, n) || strncmp(err->msg + n, ": ", 2) ? err->msg
	                                                                      : err->msg + n + 2);
	if (!strncmp(rest, open_fail, sizeof(open_fail) - 1))
		return lab_err_set(err, LAB_ETOPO, "%s: cannot load the XML topology: %s", spec,
		                   rest + sizeof(open_fail) - 1);
	if (!strncmp(rest, "not a regular file", 18))
		return lab_err_set(err, LAB_ETOPO,
		                   "%s: not a regular file (an XML topology is a file, e.g. from "
		                   "lstopo topo.xml)",
		                   spec);
	return lab_err_set(err, LAB_ETOPO, "%s: %s", spec, rest);
}

int lab__topo_load(hwloc_topology_t *hw, char **source, const char *spec, struct lab_err *err)
{
	const char *desc;
	char *buf = NULL;
	int rc = 0;

	if (hwloc_topology_init(hw) < 0)
		return lab_err_set(err, LAB_ENOMEM, "%s: cannot start hwloc: %s",
		                   spec ? spec : "this system", strerror(errno));
	if (!spec || !*spec) {
		*source = strdup("this system");
	} else if (!strncmp(spec, "synthetic:", 10)) {
		desc = spec + 10;
		size_t len = strlen(desc);
		if (len >= 2 && (desc[0] == '"' || desc[0] == '\'') && desc[len - 1] == desc[0]) {
			desc++;
			len -= 2;
		}
		buf = strndup(desc, len);
		if (!buf) {
			rc = lab_err_set(err, LAB_ENOMEM, "%s: out of memory", spec);
			goto out;
		}
		if (*buf && (topo_synthetic_check(spec, buf, err) < 0 ||
		             topo_synthetic_indexes(spec, buf, err) < 0)) {
			rc = -LAB_ETOPO;
			goto out;
		}
		if (!*buf || hwloc_topology_set_synthetic(*hw, buf) < 0) {
			rc = lab_err_set(err, LAB_ETOPO,
			                 "%s: hwloc rejects the synthetic description '%s' "
			                 "(expected e.g. synthetic:\"pack:2 core:8 pu:2\")",
			                 spec, buf);
			goto out;
		}
		*source = strdup(spec);
	} else if (!strncmp(spec, "xml:", 4)) {
		desc = spec + 4;
		if (!*desc) {
			rc = lab_err_set(err, LAB_ETOPO, "%s: no file named (expected xml:FILE)",
			                 spec);
			goto out;
		}
		size_t len = 0;
		rc = topo_xml_read(spec, desc, &buf, &len, err);
		if (rc < 0)
			goto out;
		if (hwloc_topology_set_xmlbuffer(*hw, buf, (int)len + 1) < 0) {
			rc = lab_err_set(
			    err, LAB_ETOPO,
			    "%s: cannot load the XML topology: not a valid hwloc XML file", spec);
			goto out;
		}
		*source = strdup(spec);
	} else {
		rc = lab_err_set(err, LAB_ETOPO,
		                 "%s: unknown topology (allowed: synthetic:\"DESCRIPTION\" such as "
		                 "synthetic:\"pack:2 core:8 pu:2\", xml:FILE, or nothing for this "
		                 "system)",
		                 spec);
		goto out;
	}
	if (!*source) {
		rc = lab_err_set(err, LAB_ENOMEM, "%s: out of memory", spec ? spec : "this system");
		goto out;
	}
	if (hwloc_topology_load(*hw) < 0)
		rc = lab_err_set(err, LAB_ETOPO, "%s: hwloc cannot load the topology: %s", *source,
		                 strerror(errno));
out:
	free(buf);
	return rc;
}
