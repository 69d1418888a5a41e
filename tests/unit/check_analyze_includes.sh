#!/bin/sh
# Fails when a file under analyze/ includes a harness/ header other than the results schema and
# the base headers (DESIGN.md section 2): the analyzer reads result files, never the runtime.
# Usage: check_analyze_includes.sh SRCDIR
set -eu
src=${1:?usage: $0 SRCDIR}
[ -d "$src/analyze" ] || { echo "no $src/analyze" >&2; exit 2; }
allowed='harness/(record_schema|err|json|fileio|hash|units|lessons|place_text|metric_domain)\.h'
# Every #include naming harness/, with any spacing and either quote style.
bad=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]harness/' "$src/analyze" \
	--include='*.c' --include='*.h' --include='*.def' |
	grep -vE "[<\"]${allowed}[>\"]" || true)
if [ -n "$bad" ]; then
	echo "analyze/ includes harness headers outside the base (allowed: record_schema.h," >&2
	echo "err.h, json.h, fileio.h, hash.h, units.h, lessons.h, place_text.h, metric_domain.h):" >&2
	echo "$bad" >&2
	exit 1
fi
n=$(grep -rlE '#[[:space:]]*include[[:space:]]*[<"]harness/' "$src/analyze" | wc -l)
[ "$n" -gt 0 ] || { echo "found no harness include at all: is the pattern stale?" >&2; exit 1; }
echo "analyze/: $n files include harness/ base headers only"
