/* Tight loops: the least work any Two-Choice simulator does per ball here, as a bound for
 * BENCHMARKS.md. xoshiro256++ (the generator balloc's runs use), two uniform bins from one 64-bit
 * word by Lemire's multiply-and-reject on each 32-bit half, the lighter kept (the first on a tie),
 * one increment. No observers beyond the maximum load.
 *
 *   gcc -O3 -march=native -o tight tight.c
 *   ./tight seq N M RUNS SEED [u8]       sequential; u8 = one byte per bin, re-based when the
 *                                        top byte would overflow (u32 otherwise)
 *   ./tight one N M RUNS SEED            sequential One-Choice (u32 loads)
 *   ./tight beta N M RUNS SEED BETA      sequential (1+β): a 64-bit coin, then the Two-Choice pair
 *   ./tight batched N B M RUNS SEED      b-batched: picks on the loads of the batch start into a
 *                                        u32 count per bin, counts added at the batch end
 *   ./tight batched1 N B M RUNS SEED     b-batched One-Choice: a uniform bin per ball (as `one`)
 *                                        into the counts, counts added at the batch end
 *
 * Output: `mean stderr runs` of the final gap (seq) or of the max gap over batch ends (batched).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t s[4];
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) {
  uint64_t r = rotl(s[0] + s[3], 23) + s[0], t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
  return r;
}
static void seed(uint64_t v) { /* splitmix64 */
  for (int i = 0; i < 4; i++) {
    uint64_t z = (v += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    s[i] = z ^ (z >> 31);
  }
}
/* Two uniform values in 0..n (n <= 2^32) from one word; a half in the rejection zone is redrawn. */
static inline void pair(uint64_t n, uint64_t reject, uint64_t* a, uint64_t* b) {
  uint64_t w = next(), x = (w & 0xffffffffu) * n, y = (w >> 32) * n;
  while ((x & 0xffffffffu) < reject) x = (next() >> 32) * n;
  while ((y & 0xffffffffu) < reject) y = (next() >> 32) * n;
  *a = x >> 32;
  *b = y >> 32;
}

static double seq32(uint64_t n, uint64_t m) {
  uint32_t* x = calloc(n, 4);
  uint64_t reject = ((1ull << 32) - n) % n, mx = 0, a, b;
  for (uint64_t t = 0; t < m; t++) {
    pair(n, reject, &a, &b);
    uint64_t k = x[b] < x[a] ? b : a;
    uint32_t v = ++x[k];
    if (v > mx) mx = v;
  }
  free(x);
  return (double)mx - (double)m / (double)n;
}

static double seq8(uint64_t n, uint64_t m) {
  uint8_t* x = calloc(n, 1);
  uint64_t reject = ((1ull << 32) - n) % n, mx = 0, base = 0, a, b;
  for (uint64_t t = 0; t < m; t++) {
    pair(n, reject, &a, &b);
    uint64_t k = x[b] < x[a] ? b : a;
    if (x[k] == 255) { /* re-base: subtract the minimum */
      uint8_t lo = 255;
      for (uint64_t i = 0; i < n; i++) lo = x[i] < lo ? x[i] : lo;
      for (uint64_t i = 0; i < n; i++) x[i] -= lo;
      base += lo;
      mx -= lo;
    }
    uint8_t v = ++x[k];
    if (v > mx) mx = v;
  }
  free(x);
  return (double)(base + mx) - (double)m / (double)n;
}

static double one(uint64_t n, uint64_t m) {
  uint32_t* x = calloc(n, 4);
  uint64_t mx = 0;
  for (uint64_t t = 0; t < m; t++) {
    uint64_t k = ((next() >> 32) * n) >> 32; /* n << 2^32: bias below 2^-18, ignored here */
    uint32_t v = ++x[k];
    if (v > mx) mx = v;
  }
  free(x);
  return (double)mx - (double)m / (double)n;
}

static double beta(uint64_t n, uint64_t m, double b) {
  uint32_t* x = calloc(n, 4);
  uint64_t reject = ((1ull << 32) - n) % n, mx = 0, p, q;
  uint64_t thr = (uint64_t)(b * 18446744073709551616.0);
  for (uint64_t t = 0; t < m; t++) {
    int coin = next() < thr;
    pair(n, reject, &p, &q);
    uint64_t k = coin && x[q] < x[p] ? q : p;
    uint32_t v = ++x[k];
    if (v > mx) mx = v;
  }
  free(x);
  return (double)mx - (double)m / (double)n;
}

static double batched1(uint64_t n, uint64_t bsz, uint64_t m) {
  uint32_t* x = calloc(n, 4);
  uint32_t* c = calloc(n, 4);
  uint64_t mx = 0, total = 0;
  double best = -1e300;
  for (uint64_t done = 0; done < m; done += bsz) {
    for (uint64_t t = 0; t < bsz; t++) c[((next() >> 32) * n) >> 32]++;
    for (uint64_t i = 0; i < n; i++) {
      x[i] += c[i];
      c[i] = 0;
      if (x[i] > mx) mx = x[i];
    }
    total += bsz;
    double g = (double)mx - (double)total / (double)n;
    if (g > best) best = g;
  }
  free(x);
  free(c);
  return best;
}

static double batched(uint64_t n, uint64_t bsz, uint64_t m) {
  uint32_t* x = calloc(n, 4);
  uint32_t* c = calloc(n, 4);
  uint64_t reject = ((1ull << 32) - n) % n, mx = 0, total = 0, a, b;
  double best = -1e300;
  for (uint64_t done = 0; done < m; done += bsz) {
    for (uint64_t t = 0; t < bsz; t++) {
      pair(n, reject, &a, &b);
      c[x[b] < x[a] ? b : a]++;
    }
    for (uint64_t i = 0; i < n; i++) {
      x[i] += c[i];
      c[i] = 0;
      if (x[i] > mx) mx = x[i];
    }
    total += bsz;
    double g = (double)mx - (double)total / (double)n;
    if (g > best) best = g;
  }
  free(x);
  free(c);
  return best;
}

int main(int argc, char** argv) {
  double v[100000];
  long runs = 0;
  if (argc >= 6 && !strcmp(argv[1], "seq")) {
    uint64_t n = strtoull(argv[2], 0, 10), m = strtoull(argv[3], 0, 10);
    runs = atol(argv[4]);
    seed(strtoull(argv[5], 0, 10));
    int u8 = argc > 6 && !strcmp(argv[6], "u8");
    for (long r = 0; r < runs; r++) v[r] = u8 ? seq8(n, m) : seq32(n, m);
  } else if (argc == 6 && !strcmp(argv[1], "one")) {
    uint64_t n = strtoull(argv[2], 0, 10), m = strtoull(argv[3], 0, 10);
    runs = atol(argv[4]);
    seed(strtoull(argv[5], 0, 10));
    for (long r = 0; r < runs; r++) v[r] = one(n, m);
  } else if (argc == 7 && !strcmp(argv[1], "beta")) {
    uint64_t n = strtoull(argv[2], 0, 10), m = strtoull(argv[3], 0, 10);
    runs = atol(argv[4]);
    seed(strtoull(argv[5], 0, 10));
    double b = atof(argv[6]);
    for (long r = 0; r < runs; r++) v[r] = beta(n, m, b);
  } else if (argc == 7 && !strcmp(argv[1], "batched1")) {
    uint64_t n = strtoull(argv[2], 0, 10), b = strtoull(argv[3], 0, 10),
             m = strtoull(argv[4], 0, 10);
    runs = atol(argv[5]);
    seed(strtoull(argv[6], 0, 10));
    for (long r = 0; r < runs; r++) v[r] = batched1(n, b, m);
  } else if (argc == 7 && !strcmp(argv[1], "batched")) {
    uint64_t n = strtoull(argv[2], 0, 10), b = strtoull(argv[3], 0, 10),
             m = strtoull(argv[4], 0, 10);
    runs = atol(argv[5]);
    seed(strtoull(argv[6], 0, 10));
    for (long r = 0; r < runs; r++) v[r] = batched(n, b, m);
  } else {
    fprintf(stderr, "usage: tight seq|one N M RUNS SEED [u8] | beta N M RUNS SEED BETA | "
                    "batched|batched1 N B M RUNS SEED\n");
    return 2;
  }
  if (runs < 1 || runs > 100000) return 2;
  double mean = 0, var = 0;
  for (long r = 0; r < runs; r++) mean += v[r];
  mean /= runs;
  for (long r = 0; r < runs; r++) var += (v[r] - mean) * (v[r] - mean);
  printf("%.6f %.6f %ld\n", mean, runs > 1 ? sqrt(var / (runs - 1) / runs) : 0.0, runs);
  return 0;
}
