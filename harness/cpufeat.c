/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/cpufeat.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hiding a feature hides those built on it: no CPU has AVX2 without AVX, or AVX-512 without
 * AVX2 and FMA, so a mask of "avx2" must look like a real older CPU to a kernel's check. */
static const struct {
	unsigned bit;
	unsigned above;
} cpu_deps[] = {
#define CPU_AVX512_ANY                                                                             \
	(LAB_CPU_AVX512F | LAB_CPU_AVX512BW | LAB_CPU_AVX512DQ | LAB_CPU_AVX512VL |                \
	 LAB_CPU_AVX512VNNI | LAB_CPU_AVX512VBMI)
    {LAB_CPU_SSE2, LAB_CPU_ALL},
    {LAB_CPU_SSE42, LAB_CPU_ALL & ~LAB_CPU_SSE2},
    {LAB_CPU_AVX, LAB_CPU_ALL & ~(LAB_CPU_SSE2 | LAB_CPU_SSE42 | LAB_CPU_POPCNT)},
    {LAB_CPU_AVX2, LAB_CPU_AVX2 | CPU_AVX512_ANY},
    {LAB_CPU_FMA, LAB_CPU_FMA | CPU_AVX512_ANY},
    {LAB_CPU_AVX512F, CPU_AVX512_ANY},
};

static const struct {
	unsigned bit;
	const char *name;
} cpu_names[] = {
    {LAB_CPU_SSE2, "sse2"},         {LAB_CPU_SSE42, "sse4.2"},
    {LAB_CPU_AVX, "avx"},           {LAB_CPU_AVX2, "avx2"},
    {LAB_CPU_FMA, "fma"},           {LAB_CPU_AVX512F, "avx512f"},
    {LAB_CPU_AVX512BW, "avx512bw"}, {LAB_CPU_AVX512DQ, "avx512dq"},
    {LAB_CPU_AVX512VL, "avx512vl"}, {LAB_CPU_AVX512VNNI, "avx512vnni"},
    {LAB_CPU_POPCNT, "popcnt"},     {LAB_CPU_AVX512VBMI, "avx512vbmi"},
};

#define CPU_NNAMES (sizeof(cpu_names) / sizeof(cpu_names[0]))

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0: which register states the OS saves on a context switch. */
static uint64_t cpu_xgetbv(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

unsigned lab_cpu_detect(void)
{
	unsigned a, b, c, d, f = 0, max;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	f |= d & bit_SSE2 ? LAB_CPU_SSE2 : 0;
	f |= c & bit_SSE4_2 ? LAB_CPU_SSE42 : 0;
	f |= c & bit_POPCNT ? LAB_CPU_POPCNT : 0;
	/* AVX needs the OS to save XMM and YMM state (XCR0 bits 1, 2), announced by OSXSAVE. */
	uint64_t xcr0 = c & bit_OSXSAVE ? cpu_xgetbv() : 0;
	bool ymm = (xcr0 & 0x6) == 0x6, zmm = (xcr0 & 0xe6) == 0xe6;
	if (!ymm)
		return f;
	f |= c & bit_AVX ? LAB_CPU_AVX : 0;
	f |= c & bit_FMA ? LAB_CPU_FMA : 0;
	max = __get_cpuid_max(0, NULL);
	if (max < 7)
		return f;
	__cpuid_count(7, 0, a, b, c, d);
	f |= b & bit_AVX2 ? LAB_CPU_AVX2 : 0;
	if (!zmm) /* opmask and ZMM state too (XCR0 bits 5-7) */
		return f;
	f |= b & bit_AVX512F ? LAB_CPU_AVX512F : 0;
	f |= b & bit_AVX512BW ? LAB_CPU_AVX512BW : 0;
	f |= b & bit_AVX512DQ ? LAB_CPU_AVX512DQ : 0;
	f |= b & bit_AVX512VL ? LAB_CPU_AVX512VL : 0;
	f |= c & (1u << 11) ? LAB_CPU_AVX512VNNI : 0; /* CPUID.7.0:ECX.AVX512_VNNI */
	f |= c & (1u << 1) ? LAB_CPU_AVX512VBMI : 0;  /* CPUID.7.0:ECX.AVX512_VBMI */
	return f;
}

void lab_cpu_hypervisor(char *buf, size_t len)
{
	unsigned a, b, c, d;
	char sig[12];
	const char *name = NULL;

	if (!len)
		return;
	buf[0] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	name = lab_cpu_hypervisor_name(sig);
	snprintf(buf, len, "%s", name ? name : "unknown");
}
#else
unsigned lab_cpu_detect(void)
{
	return 0;
}

void lab_cpu_hypervisor(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
}
#endif

const char *lab_cpu_hypervisor_name(const char sig[12])
{
	static const struct {
		char sig[13];
		const char *name;
	} known[] = {
	    {"KVMKVMKVM\0\0\0", "KVM"},    {"TCGTCGTCGTCG", "QEMU TCG"},
	    {"Microsoft Hv", "Hyper-V"},   {"VMwareVMware", "VMware"},
	    {"XenVMMXenVMM", "Xen"},       {"bhyve bhyve ", "bhyve"},
	    {" lrpepyh  vr", "Parallels"}, {"ACRNACRNACRN", "ACRN"},
	    {"QNXQVMBSQG\0\0", "QNX"},     {"VBoxVBoxVBox", "VirtualBox"},
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!memcmp(sig, known[i].sig, 12))
			return known[i].name;
	return NULL;
}

const char *lab_cpu_name(unsigned bit)
{
	for (size_t i = 0; i < CPU_NNAMES; i++)
		if (cpu_names[i].bit == bit)
			return cpu_names[i].name;
	return NULL;
}

void lab_cpu_format(unsigned set, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < CPU_NNAMES; i++) {
		if (!(set & cpu_names[i].bit) || used >= len)
			continue;
		int n =
		    snprintf(buf + used, len - used, "%s%s", used ? " " : "", cpu_names[i].name);
		used += n > 0 ? (size_t)n : 0;
	}
	if (!used)
		snprintf(buf, len, "none");
}

/* One word of a mask list, without surrounding spaces, into *bit. */
static int cpu_parse_word(const char *w, size_t n, unsigned *bit)
{
	if (n == 3 && strncmp(w, "all", 3) == 0) {
		*bit = LAB_CPU_ALL;
		return 0;
	}
	for (size_t i = 0; i < CPU_NNAMES; i++)
		if (strlen(cpu_names[i].name) == n && strncmp(w, cpu_names[i].name, n) == 0) {
			*bit = cpu_names[i].bit;
			return 0;
		}
	return -1;
}

unsigned lab_cpu_bit(const char *name)
{
	unsigned bit = 0;

	return strcmp(name, "all") && cpu_parse_word(name, strlen(name), &bit) == 0 ? bit : 0;
}

int lab_cpu_parse(const char *list, unsigned *mask, struct lab_err *err)
{
	char names[256];

	*mask = 0;
	for (const char *p = list; p && *p;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		const char *w = p;
		while (*p && *p != ',' && !isspace((unsigned char)*p))
			p++;
		unsigned bit;
		if (p == w)
			break;
		if (cpu_parse_word(w, (size_t)(p - w), &bit) != 0) {
			lab_cpu_format(LAB_CPU_ALL, names, sizeof(names));
			*mask = 0;
			return lab_err_set(err, LAB_ECONFIG,
			                   "unknown CPU feature '%.*s' (allowed %s, all)",
			                   (int)(p - w), w, names);
		}
		*mask |= bit;
	}
	for (size_t i = 0; i < sizeof(cpu_deps) / sizeof(cpu_deps[0]); i++)
		if (*mask & cpu_deps[i].bit)
			*mask |= cpu_deps[i].above;
	return 0;
}

int lab_cpu_mask_from_env(unsigned *masked, struct lab_err *err)
{
	const char *v = getenv(LAB_CPU_MASK_ENV);

	*masked = 0;
	if (!v)
		return 0;
	if (lab_cpu_parse(v, masked, err) != 0)
		return lab_err_prefix(err, "%s=%s: ", LAB_CPU_MASK_ENV, v);
	return 0;
}

int lab_cpu_require(unsigned need, unsigned have, unsigned masked, struct lab_err *err)
{
	char want[256], got[256], hidden[256];
	unsigned lack = need & ~have;

	if (!lack)
		return 0;
	lab_cpu_format(lack, want, sizeof(want));
	lab_cpu_format(have, got, sizeof(got));
	if (lack & masked) {
		lab_cpu_format(lack & masked, hidden, sizeof(hidden));
		lab_err_set(err, LAB_EUNSUP, "needs %s; this CPU has %s (%s hidden by %s)", want,
		            got, hidden, LAB_CPU_MASK_ENV);
	} else {
		lab_err_set(err, LAB_EUNSUP, "needs %s; this CPU has %s", want, got);
	}
	return LAB_SKIP;
}
