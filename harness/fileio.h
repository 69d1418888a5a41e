/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whole-file reading shared by the harness (XML topologies, config files) and the analyzer
 * (results files, --csv input). A base header: it names nothing of the runtime.
 */
#ifndef LAB_HARNESS_FILEIO_H
#define LAB_HARNESS_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

#include "harness/err.h"

/* What kind of file mode m is, for a message: "a regular file", "a directory", "a FIFO",
 * "a symbolic link" (an lstat's), "a character device", "a block device", "a socket". */
const char *lab_file_kind(mode_t m);

/*
 * Reads the regular file at path into a fresh NUL-terminated buffer (*buf, owned by the caller;
 * *len excludes the NUL). Anything else (a FIFO, a device, a directory) is refused after open
 * without reading from it, so a FIFO never blocks. A file over max_bytes is refused, also when it
 * grows between fstat and read. Interrupted reads are retried.
 * Returns 0, or -LAB_EIO / -LAB_ENOMEM with *buf NULL and a message that starts with the path and
 * names the step: "PATH: cannot open: CAUSE", "PATH: not a regular file (a directory; allowed:
 * a regular file)", "PATH: N bytes (allowed at most M MiB)" (bytes when M is not whole MiB),
 * "PATH: read error: CAUSE" or "PATH: out of memory". Callers that word their own messages may
 * rely on these forms.
 */
int lab_file_read(const char *path, size_t max_bytes, char **buf, size_t *len, struct lab_err *err);

#endif
