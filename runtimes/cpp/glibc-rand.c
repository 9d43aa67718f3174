/*
 * rand(), srand(), random() and srandom() with glibc's sequence (its default TYPE_3 generator),
 * linked into every C++ program before wasi-libc: the official image runs glibc, and programs
 * that print seeded (or unseeded) random numbers must print glibc's numbers to get its verdict.
 *
 * The generator, as glibc documents it through its behaviour: a seed s (0 taken as 1) fills 31
 * words with r[0] = s, r[i] = 16807 * r[i-1] mod (2^31 - 1) (computed in signed 32 bits, a
 * negative result raised by 2^31 - 1); then r[i] = r[i-31] for i = 31..33 and
 * r[i] = r[i-31] + r[i-3] (mod 2^32) from there on; the first 310 of these are thrown away and
 * each call returns the next one shifted right by one bit. With no srand(), the seed is 1.
 */
#include <stdint.h>

static uint32_t ring[31];
static unsigned position; /* index i of the next word, modulo 31 */
static int seeded;

static uint32_t next_word(void) {
  /* r[i-31] sits in the slot r[i] replaces; r[i-3] is three slots back. */
  uint32_t word = ring[position] + ring[(position + 28) % 31];
  ring[position] = word;
  position = (position + 1) % 31;
  return word;
}

void srandom(unsigned seed) {
  int32_t r = (int32_t)(seed == 0 ? 1 : seed);
  ring[0] = (uint32_t)r;
  for (int i = 1; i < 31; i++) {
    /* 16807 * r mod (2^31 - 1) without overflow (Schrage), in signed arithmetic as glibc. */
    int32_t hi = r / 127773, lo = r % 127773;
    r = 16807 * lo - 2836 * hi;
    if (r < 0) r += 2147483647;
    ring[i] = (uint32_t)r;
  }
  /* r[31..33] = r[0..2]: slots 0-2 already hold them, so the next word made is r[34], in slot 3. */
  position = 3;
  for (int i = 34; i < 344; i++) next_word();
  seeded = 1;
}

long random(void) {
  if (!seeded) srandom(1);
  return (long)(next_word() >> 1);
}

void srand(unsigned seed) { srandom(seed); }

int rand(void) { return (int)random(); }
