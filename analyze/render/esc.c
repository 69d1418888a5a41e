/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/render/esc.h"

#include <stdio.h>

#include "harness/json.h"

/* The bytes of a UTF-8 sequence led by b (0: b leads none), and the range of its second byte
 * (narrower than 0x80..0xbf where that would allow an overlong form, a surrogate or a code
 * point past U+10FFFF). */
static size_t esc_utf8_len(unsigned char b, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef) {
		*lo = b == 0xe0 ? 0xa0 : 0x80;
		*hi = b == 0xed ? 0x9f : 0xbf;
		return 3;
	}
	if (b >= 0xf0 && b <= 0xf4) {
		*lo = b == 0xf0 ? 0x90 : 0x80;
		*hi = b == 0xf4 ? 0x8f : 0xbf;
		return 4;
	}
	return 0;
}

enum lab_esc_kind lab_esc_classify(const unsigned char *s, size_t n, bool at_end, size_t *len,
                                   unsigned *cp)
{
	unsigned char lo, hi;
	size_t need = esc_utf8_len(s[0], &lo, &hi);

	*len = 1;
	*cp = s[0];
	if (s[0] < 0x80)
		return s[0] < 0x20 || s[0] == 0x7f ? LAB_ESC_BYTE : LAB_ESC_PLAIN;
	if (!need)
		return LAB_ESC_BYTE;
	*cp = s[0] & (0x7f >> need);
	for (size_t i = 1; i < need; i++) {
		if (i >= n) {
			*len = at_end ? 1 : 0;
			*cp = s[0];
			return at_end ? LAB_ESC_BYTE : LAB_ESC_MORE;
		}
		if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf)) {
			*cp = s[0];
			return LAB_ESC_BYTE;
		}
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	*len = need;
	return lab_cp_escaped(*cp) ? LAB_ESC_CODE : LAB_ESC_PLAIN;
}

void lab_esc_put_code(FILE *f, unsigned cp)
{
	if (cp > 0xffff)
		fprintf(f, "\\U%08x", cp);
	else
		fprintf(f, "\\u%04x", cp);
}
