/*
 * The distinct keys of a list in the order they first appear, found through a small hash table of their places:
 * the blocks a warp's lanes touch on the general memory path (sim/memmodel.c: distinct_values), where buckets by
 * the keys' low bits cost hundreds of host instructions when the lanes' addresses lie a power of two apart (a
 * column: every sector key a multiple of 16 in two buckets of 32).
 */
#ifndef WARPSIM_SIM_KEY_SET_H
#define WARPSIM_SIM_KEY_SET_H

#include <stdint.h>
#include <string.h>

#define WS_KEY_SET_SLOTS 1024   /* twice the most keys a caller lists and more (sim/memmodel.c: MAX_KEYS, 288) */

/* Slot s holds the place + 1 of a key in the caller's list (0: empty); `mask` is the slots in use less one. */
typedef struct {
    uint16_t slot[WS_KEY_SET_SLOTS];
    unsigned mask;
} ws_key_set;

/* An empty set with room for `most` keys (WS_KEY_SET_SLOTS / 2 at most): its table twice that, 64 slots at least,
 * cleared alone. */
static inline void ws_key_set_start(ws_key_set *s, unsigned most)
{
    unsigned slots = 64;
    while (slots < 2 * most && slots < WS_KEY_SET_SLOTS)
        slots *= 2;
    s->mask = slots - 1;
    memset(s->slot, 0, slots * sizeof *s->slot);
}

/* The place of `key` in keys[0 .. *n), the distinct keys so far (the set's); a new key is appended at keys[*n]
 * and *n grows. */
static inline unsigned ws_key_set_find(ws_key_set *s, uint64_t *keys, unsigned *n, uint64_t key)
{
    unsigned h = (unsigned)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 40) & s->mask;
    for (;; h = (h + 1) & s->mask) {
        unsigned place = s->slot[h];
        if (!place) {
            keys[*n] = key;
            s->slot[h] = (uint16_t)++*n;
            return *n - 1;
        }
        if (keys[place - 1] == key)
            return place - 1;
    }
}

#endif
