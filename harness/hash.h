/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A keyed 64-bit hash for the lab's hash tables (SipHash-1-3 under a key drawn once per process
 * from the kernel's random source). Results directories and configs are untrusted: with a fixed
 * hash, names made to share a table slot (a few MB of crafted params) made `lab compare` of
 * 131,072 points take 192 s instead of 11 s. Under a key the sender cannot know, no input
 * collides more often than chance. Values differ from process to process: use them to find
 * things, never to order what is written.
 */
#ifndef LAB_HARNESS_HASH_H
#define LAB_HARNESS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of the n bytes at p, continued from the hash h of what came before (any value to
 * start). */
uint64_t lab_hash_bytes(uint64_t h, const void *p, size_t n);

#endif
