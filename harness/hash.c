/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/hash.h"

#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t hash_key[2];
static pthread_once_t hash_once = PTHREAD_ONCE_INIT;

/* 16 random bytes; where the random source fails (a sandbox without getrandom), what differs
 * between processes: the clock, the pid and where the stack and this library were placed. */
static void hash_key_init(void)
{
	struct timespec t = {0};

	if (getrandom(hash_key, sizeof(hash_key), GRND_NONBLOCK) == (ssize_t)sizeof(hash_key))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	hash_key[0] = (uint64_t)t.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)t.tv_sec ^
	              (uint64_t)(uintptr_t)&t;
	hash_key[1] = (uint64_t)getpid() * 0xbf58476d1ce4e5b9ull ^ (uint64_t)(uintptr_t)&hash_key;
}

#define HASH_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

/* One SipRound over the state v. */
static void hash_round(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = HASH_ROTL(v[1], 13) ^ v[0];
	v[0] = HASH_ROTL(v[0], 32);
	v[2] += v[3];
	v[3] = HASH_ROTL(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = HASH_ROTL(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = HASH_ROTL(v[1], 17) ^ v[2];
	v[2] = HASH_ROTL(v[2], 32);
}

static void hash_word(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	hash_round(v);
	v[0] ^= m;
}

/* SipHash-1-3 of the 8 bytes of h followed by the n bytes at p (little-endian words; the last
 * word holds the length in its top byte, as SipHash pads). */
uint64_t lab_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t v[4], m = 0;
	size_t i;

	pthread_once(&hash_once, hash_key_init);
	v[0] = hash_key[0] ^ 0x736f6d6570736575ull;
	v[1] = hash_key[1] ^ 0x646f72616e646f6dull;
	v[2] = hash_key[0] ^ 0x6c7967656e657261ull;
	v[3] = hash_key[1] ^ 0x7465646279746573ull;
	hash_word(v, h);
	for (i = 0; i + 8 <= n; i += 8) {
		m = 0;
		for (int b = 7; b >= 0; b--)
			m = m << 8 | c[i + (size_t)b];
		hash_word(v, m);
	}
	m = (uint64_t)((n + 8) & 0xff) << 56;
	for (size_t b = 0; i + b < n; b++)
		m |= (uint64_t)c[i + b] << (8 * b);
	hash_word(v, m);
	v[2] ^= 0xff;
	hash_round(v);
	hash_round(v);
	hash_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}
