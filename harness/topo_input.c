/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loading what --topology names into hwloc, with the limits checked on the text before hwloc
 * sees it: a synthetic description as topo_synthetic.c checks it; an XML topology must be a
 * regular file of bounded size, read here (hwloc would read /dev/zero or a FIFO forever), whose
 * OS indices are small enough for the bitmaps hwloc sizes to them and whose objects nest no
 * deeper than hwloc's recursive parser can follow.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/fileio.h"
#include "harness/topo_internal.h"

/*
 * Every os_index="N" of xml is at most LAB_TOPO_OS_MAX: hwloc sizes each object's cpuset or
 * nodeset to the highest index (os_index 2^32 - 1: 512 MB before the lab sees a PU).
 */
static int topo_xml_os_check(const char *path, const char *xml, struct lab_err *err)
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
		if (n > LAB_TOPO_OS_MAX || !digits || (q && *v != q)) {
			unsigned line = 1;
			for (const char *p = xml; p < c; p++)
				line += *p == '\n';
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s:%u: an object's os_index is out of range (allowed a whole "
			    "number 0 .. %d)",
			    path, line, LAB_TOPO_OS_MAX);
		}
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

/* The value of attribute name in the tag [tag, end) into val (at most len - 1 bytes): 1, or 0
 * when the tag has none. */
static int topo_attr(const char *tag, const char *end, const char *name, char *val, size_t len)
{
	size_t k = strlen(name);

	for (const char *c = tag; c + k + 2 < end; c++) {
		if (!isspace((unsigned char)c[0]) || strncmp(c + 1, name, k) || c[1 + k] != '=')
			continue;
		const char *v = c + k + 2;
		char q = *v == '"' || *v == '\'' ? *v++ : 0;
		size_t n = 0;

		while (v + n < end &&
		       (q ? v[n] != q : !isspace((unsigned char)v[n]) && v[n] != '>'))
			n++;
		snprintf(val, len, "%.*s", (int)(n < len ? n : len - 1), v);
		return 1;
	}
	return 0;
}

/*
 * What hwloc would take from one object tag [c, end) at line of path, checked here where the
 * line is known: a PU's os_index once (seen: a bitmap of LAB_TOPO_OS_MAX + 1 bits), a cache
 * line of 0 (not known) or a power of two 16 .. 4096 bytes. (After hwloc these said no line.)
 * Counts the PUs in *npus.
 */
static int topo_xml_object_check(const char *path, unsigned line, const char *c, const char *end,
                                 unsigned char *seen, unsigned *npus, struct lab_err *err)
{
	char v[32], type[32] = "";
	unsigned long n;

	if (strncmp(c, "<object", 7))
		return 0;
	topo_attr(c, end, "type", type, sizeof(type));
	*npus += !strcmp(type, "PU");
	if (topo_attr(c, end, "cache_linesize", v, sizeof(v)) &&
	    (n = strtoul(v, NULL, 10), n && (n < 16 || n > 4096 || (n & (n - 1)))))
		return lab_err_set(
		    err, LAB_ETOPO,
		    "%s:%u: an %.31s line of %.31s bytes (allowed 0 for not known, or "
		    "a power of two 16 .. 4096)",
		    path, line, *type ? type : "object's cache", v);
	if (!strcmp(type, "PU") && topo_attr(c, end, "os_index", v, sizeof(v)) &&
	    (n = strtoul(v, NULL, 10)) <= LAB_TOPO_OS_MAX) {
		if (seen[n / 8] & (1u << (n % 8)))
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s:%u: a second PU with os_index %lu (allowed: each PU its "
			    "own)",
			    path, line, n);
		seen[n / 8] |= (unsigned char)(1u << (n % 8));
	}
	return 0;
}

/*
 * No element of xml (read from path) nested more than LAB_TOPO_XML_DEPTH_MAX deep: hwloc's XML
 * import recurses once per nested object, and 20,000 of them (a 2 MB file) overflowed its
 * stack. A real topology is under 20 deep. Each object's PU index and cache line as
 * topo_xml_object_check holds them. Returns 0 or -LAB_ETOPO naming path:line.
 */
static int topo_xml_depth_check(const char *path, const char *xml, unsigned *npus,
                                struct lab_err *err)
{
	unsigned depth = 0, line = 1, objects = 0;
	unsigned char seen[LAB_TOPO_OS_MAX / 8 + 1] = {0}; /* 8 KiB */

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
		if (elem && !strncmp(c + 1, "object", 6) && ++objects > LAB_TOPO_XML_OBJECTS_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s:%u: more than %d objects (allowed: at most %d; a "
			                   "4096-PU machine has about 15,000)",
			                   path, at, LAB_TOPO_XML_OBJECTS_MAX,
			                   LAB_TOPO_XML_OBJECTS_MAX);
		if (elem && topo_xml_object_check(path, at, c, end, seen, npus, err))
			return -LAB_ETOPO;
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
                         unsigned *npus, struct lab_err *err)
{
	static const char open_fail[] = "cannot open: ";
	int rc = lab_file_read(path, LAB_TOPO_XML_MAX, buf, len, err);
	char rest[LAB_ERR_MSG_MAX];
	size_t n = strlen(path);

	if (!rc) {
		if ((rc = topo_xml_os_check(path, *buf, err)) < 0 ||
		    (rc = topo_xml_depth_check(path, *buf, npus, err)) < 0) {
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

/* What a banner hwloc wrote says (its "* ..." lines before where and what to do, joined, each
 * cut at 100 characters), into out. */
static void topo_banner_text(const char *text, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (const char *l = text; *l && used + 1 < len; l += strcspn(l, "\n"), l += *l == '\n') {
		size_t n = strcspn(l, "\n");
		if (n < 2 || l[0] != '*' || l[1] != ' ')
			continue;
		while (n > 2 && (l[n - 1] == ' ' || l[n - 1] == '*'))
			n--;
		if (!strncmp(l + 2, "The error occured", 17) || !strncmp(l + 2, "Please check", 12))
			break;
		used += (size_t)snprintf(out + used, len - used, "%s%.*s%s", used ? " " : "",
		                         (int)(n - 2 > 100 ? 100 : n - 2), l + 2,
		                         n - 2 > 100 ? "..." : "");
	}
}

/* Unsets HWLOC_XML_VERBOSE and returns a copy of what it was (NULL: unset or no memory), for
 * topo_verbose_restore. */
static char *topo_verbose_off(void)
{
	const char *old = getenv("HWLOC_XML_VERBOSE");
	char *keep = old ? strdup(old) : NULL;

	unsetenv("HWLOC_XML_VERBOSE");
	return keep;
}

static void topo_verbose_restore(char *keep)
{
	keep ? setenv("HWLOC_XML_VERBOSE", keep, 1) : unsetenv("HWLOC_XML_VERBOSE");
	free(keep);
}

/* The first line of hwloc's text that starts "hwloc: " ("Topology does not contain any NUMA
 * node, aborting!", which hwloc prints without a banner before it refuses a topology), without
 * that prefix, into line; "" when none. */
static void topo_hwloc_line(const char *text, char *line, size_t size)
{
	const char *l = text;

	line[0] = '\0';
	while (*l && strncmp(l, "hwloc: ", 7)) {
		l += strcspn(l, "\n");
		l += *l == '\n';
	}
	if (*l)
		snprintf(line, size, "%.*s",
		         (int)(strcspn(l + 7, "\n") > 200 ? 200 : strcspn(l + 7, "\n")), l + 7);
}

/*
 * Loads an XML topology with stderr captured: hwloc takes some XML it calls invalid (PUs out of
 * cpuset order) and says so in a banner of its own on stderr (9 lines; 4.7 KB for a sparse
 * one), which broke the one line an error gets. What it wrote becomes the error.
 */
static int topo_load_xml(hwloc_topology_t hw, const char *source, struct lab_err *err)
{
	int saved = dup(2), cap = memfd_create("lab-hwloc-stderr", MFD_CLOEXEC), rc;
	char text[2048], line[320];
	ssize_t n = 0;

	if (saved < 0 || cap < 0 || (fflush(stderr), dup2(cap, 2)) < 0) {
		if (saved >= 0)
			close(saved);
		if (cap >= 0)
			close(cap);
		return hwloc_topology_load(hw);
	}
	/* only hwloc's own banners and refusals count: a user's HWLOC_XML_VERBOSE made good XML
	 * "invalid" (hwloc reads it once a process: unset here, it stays off) */
	char *keep = topo_verbose_off();
	rc = hwloc_topology_load(hw);
	int e = errno; /* the calls below overwrite it */
	topo_verbose_restore(keep);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(cap, text, sizeof(text) - 1, 0);
	close(cap);
	errno = e;
	if (rc >= 0 && n <= 0) /* loaded, and hwloc said nothing */
		return rc;
	text[n > 0 ? n : 0] = '\0';
	topo_banner_text(text, line, sizeof(line));
	if (rc < 0 &&
	    !*line) /* its errno was "No such file or directory" of a file that is there */
		topo_hwloc_line(text, line, sizeof(line));
	if (rc < 0 && !*line) {
		errno = e;
		return rc;
	}
	lab_err_set(err, LAB_ETOPO,
	            "%s: hwloc calls the topology invalid: %s (allowed: an XML topology as hwloc "
	            "writes it, e.g. `lstopo --of xml FILE`)",
	            source,
	            *line ? line : "`HWLOC_XML_VERBOSE=1 lstopo-no-graphics -i FILE` says why");
	return 1;
}

/* Loads the topology set up from source; hwloc says no more than EINVAL (no line): say what it
 * takes, and how to see where it stopped. Returns 0 or -LAB_ETOPO with err set. */
static int topo_load_source(hwloc_topology_t hw, const char *source, struct lab_err *err)
{
	int loaded =
	    !strncmp(source, "xml:", 4) ? topo_load_xml(hw, source, err) : hwloc_topology_load(hw);

	if (loaded > 0)
		return -LAB_ETOPO;
	if (loaded < 0)
		return lab_err_set(
		    err, LAB_ETOPO, "%s: hwloc cannot load the topology: %s (allowed: %s)", source,
		    strerror(errno),
		    !strncmp(source, "xml:", 4)
		        ? "an XML topology as hwloc writes it, e.g. `lstopo --of xml "
		          "FILE`; `HWLOC_XML_VERBOSE=1 lstopo-no-graphics -i FILE` shows where "
		          "hwloc stops "
		          "reading"
		        : "a description hwloc's synthetic backend reads, such as "
		          "\"pack:2 core:8 pu:2\"");
	return 0;
}

static const char *const topo_env_vars[] = {"HWLOC_SYNTHETIC", "HWLOC_XMLFILE"};

const char *lab_topo_hwloc_env(void)
{
	/* hwloc keeps the first of HWLOC_FSROOT, HWLOC_CPUID_PATH, HWLOC_SYNTHETIC, HWLOC_XMLFILE:
	 * under the first two it reads a copy of this system's files, as before */
	static const char *const before[] = {"HWLOC_FSROOT", "HWLOC_CPUID_PATH"};

	for (size_t i = 0; i < 2; i++)
		if (getenv(before[i]) && *getenv(before[i]))
			return NULL;
	for (size_t i = 0; i < 2; i++) {
		const char *v = getenv(topo_env_vars[i]);

		if (v && *v)
			return topo_env_vars[i];
	}
	return NULL;
}

size_t lab_topo_discovery_env(char *buf, size_t len)
{
	static const char *const vars[] = {"HWLOC_COMPONENTS", "HWLOC_FSROOT", "HWLOC_CPUID_PATH"};
	size_t n = 0, at = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		/* an empty HWLOC_FSROOT or HWLOC_CPUID_PATH fails hwloc's Linux backend too */
		if (!v || (i == 0 && !*v) || (i == 1 && !strcmp(v, "/")))
			continue;
		n++;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", vars[i]);
	}
	return n;
}

/* The topology hwloc would read from its environment (lab_topo_hwloc_env), as the --topology
 * spec it stands for ("synthetic:DESC", "xml:PATH") in a new string, and the variable's name in
 * *var; NULL when none is to be read (or out of memory: then hwloc reads this system). Read here
 * so that the checks of --topology hold for it too: hwloc's own reading has none (a file nested
 * 30 000 deep crashed its parser, /dev/zero grew without bound). */
static char *topo_env_spec(const char **var)
{
	const char *v, *kind;
	char *spec;

	if (!(*var = lab_topo_hwloc_env()))
		return NULL;
	v = getenv(*var);
	kind = *var == topo_env_vars[0] ? "synthetic:" : "xml:";
	if (!(spec = malloc(strlen(kind) + strlen(v) + 1)))
		return NULL;
	strcpy(spec, kind);
	strcat(spec, v);
	return spec;
}

static int topo_load_spec(hwloc_topology_t *hw, char **source, const char *spec,
                          struct lab_err *err);

int lab__topo_load(hwloc_topology_t *hw, char **source, const char *spec, struct lab_err *err)
{
	const char *var = NULL;
	char *env = spec && *spec ? NULL : topo_env_spec(&var);
	int rc;

	if (!env)
		return topo_load_spec(hw, source, spec, err);
	/* explicitly set, hwloc no longer reads the variable itself */
	rc = topo_load_spec(hw, source, env, err);
	if (rc == 0 && *source) { /* "xml:PATH (HWLOC_XMLFILE)": where it came from */
		char *named = malloc(strlen(*source) + strlen(var) + 4);

		if (named) {
			sprintf(named, "%s (%s)", *source, var);
			free(*source);
			*source = named;
		}
	}
	if (rc < 0 && err) {
		char msg[sizeof(err->msg)];
		int n = snprintf(msg, sizeof(msg), "%s in the environment: ", var);

		snprintf(msg + n, sizeof(msg) - (size_t)n, "%.*s",
		         (int)(sizeof(msg) - (size_t)n - 1), err->msg);
		lab_err_set(err, err->code, "%s", msg);
	}
	free(env);
	return rc;
}

/* hwloc drops a PU whose cpuset its parents' do not hold, or that is empty, without a word:
 * the plan would be of another machine. npus: the PUs the file lists. Returns 0 or
 * -LAB_ETOPO. */
static int topo_xml_kept(hwloc_topology_t hw, const char *spec, unsigned npus, struct lab_err *err)
{
	int kept = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);

	if (kept < 0 || (unsigned)kept == npus)
		return 0;
	return lab_err_set(err, LAB_ETOPO,
	                   "%s: the file lists %u PUs, hwloc kept %d of them (allowed: each PU's "
	                   "cpuset its own bit, inside its parents' cpusets)",
	                   spec, npus, kept);
}

static int topo_load_spec(hwloc_topology_t *hw, char **source, const char *spec,
                          struct lab_err *err)
{
	const char *desc;
	char *buf = NULL;
	size_t xlen = 0;
	unsigned npus = 0;
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
		if (*buf && lab__topo_synthetic_check(spec, buf, err) < 0) {
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
		rc = topo_xml_read(spec, desc, &buf, &xlen, &npus, err);
		if (rc < 0)
			goto out;
		/* every PU the file lists, as another machine's: an lstopo run inside a cgroup
		 * records its allowed_cpuset, which would otherwise plan on that part alone */
		if (hwloc_topology_set_flags(*hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) < 0 ||
		    hwloc_topology_set_xmlbuffer(*hw, buf, (int)xlen + 1) < 0) {
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
	rc = topo_load_source(*hw, *source, err);
	if (!rc && spec && !strncmp(spec, "xml:", 4))
		rc = topo_xml_kept(*hw, spec, npus, err);
out:
	free(buf);
	return rc;
}
