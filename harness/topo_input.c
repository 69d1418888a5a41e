/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Limits on what --topology may ask of the lab, checked before hwloc sees the input: a synthetic
 * description's PU count is the product of its level arities, and an XML topology must be a
 * regular file of bounded size, read here (hwloc would read /dev/zero or a FIFO forever).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/topo_internal.h"

int lab__topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err)
{
	unsigned long long pus = 1;

	/* Every "type:N" level multiplies the leaves; attributes in () or [] add none. */
	for (const char *c = desc; *c; c++) {
		if (*c != ':' || !isdigit((unsigned char)c[1]))
			continue;
		unsigned long long n = strtoull(c + 1, NULL, 10);
		if (n > LAB_TOPO_PUS_MAX || (pus *= n ? n : 1) > LAB_TOPO_PUS_MAX)
			return lab_err_set(err, LAB_ETOPO,
			                   "%s: more than %d PUs (the lab plans topologies of at "
			                   "most %d PUs)",
			                   spec, LAB_TOPO_PUS_MAX, LAB_TOPO_PUS_MAX);
	}
	return 0;
}

int lab__topo_xml_read(const char *spec, const char *path, char **buf, size_t *len,
                       struct lab_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	int rc = 0;

	*buf = NULL;
	if (fd < 0)
		return lab_err_set(err, LAB_ETOPO, "%s: cannot load the XML topology: %s", spec,
		                   strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = lab_err_set(err, LAB_ETOPO,
		                 "%s: not a regular file (an XML topology is a file, e.g. from "
		                 "lstopo topo.xml)",
		                 spec);
		goto out;
	}
	if (st.st_size > LAB_TOPO_XML_MAX) {
		rc = lab_err_set(err, LAB_ETOPO, "%s: %lld bytes (allowed at most %d MiB)", spec,
		                 (long long)st.st_size, LAB_TOPO_XML_MAX >> 20);
		goto out;
	}
	/* One byte more than allowed, so a file that grew since fstat is caught. */
	*buf = malloc((size_t)LAB_TOPO_XML_MAX + 2);
	if (!*buf) {
		rc = lab_err_set(err, LAB_ENOMEM, "%s: out of memory", spec);
		goto out;
	}
	*len = 0;
	for (ssize_t got; *len <= LAB_TOPO_XML_MAX; *len += (size_t)got) {
		got = read(fd, *buf + *len, (size_t)LAB_TOPO_XML_MAX + 1 - *len);
		if (got < 0 && errno == EINTR) {
			got = 0;
			continue;
		}
		if (got < 0) {
			rc = lab_err_set(err, LAB_ETOPO, "%s: read error: %s", spec,
			                 strerror(errno));
			goto out;
		}
		if (got == 0)
			break;
	}
	if (*len > LAB_TOPO_XML_MAX)
		rc = lab_err_set(err, LAB_ETOPO, "%s: larger than %d MiB", spec,
		                 LAB_TOPO_XML_MAX >> 20);
	else
		(*buf)[*len] = '\0';
out:
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	close(fd);
	return rc;
}
