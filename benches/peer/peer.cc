// A plain research-style balls-into-bins simulator, the baseline of BENCHMARKS.md.
// Per-ball loop, std::mt19937_64, std::uniform_int_distribution; in the batched setting the
// loads are re-sorted (heaviest first) after each batch and every ball of the batch picks its
// bin on the sorted loads of the batch start.
//
//   g++ -O3 -march=native -o peer peer.cc
//   ./peer seq N M SEED                 sequential Two-Choice, prints the final gap
//   ./peer batched N B M RUNS SEED      batched Two-Choice (random ties), prints the mean max gap
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

static double seq(int64_t n, int64_t m, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> bin(0, n - 1);
  std::vector<int64_t> load(n, 0);
  int64_t mx = 0;
  for (int64_t t = 0; t < m; ++t) {
    int64_t i = bin(gen), j = bin(gen);
    int64_t k = load[i] <= load[j] ? i : j;
    if (++load[k] > mx) mx = load[k];
  }
  return double(mx) - double(m) / double(n);
}

static double batched(int64_t n, int64_t b, int64_t m, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> bin(0, n - 1);
  std::vector<int64_t> load(n, 0), add(n, 0);
  double max_gap = 0;
  for (int64_t done = 0; done < m; done += b) {
    std::fill(add.begin(), add.end(), 0);
    for (int64_t t = 0; t < b; ++t) {
      int64_t i = bin(gen), j = bin(gen);
      add[load[i] <= load[j] ? i : j] += 1;
    }
    for (int64_t i = 0; i < n; ++i) load[i] += add[i];
    std::sort(load.begin(), load.end(), std::greater<int64_t>());
    double gap = double(load[0]) - double(done + b) / double(n);
    if (gap > max_gap) max_gap = gap;
  }
  return max_gap;
}

int main(int argc, char** argv) {
  if (argc >= 5 && std::string(argv[1]) == "seq") {
    printf("%.6f\n", seq(atoll(argv[2]), atoll(argv[3]), strtoull(argv[4], 0, 10)));
    return 0;
  }
  if (argc >= 7 && std::string(argv[1]) == "batched") {
    int64_t n = atoll(argv[2]), b = atoll(argv[3]), m = atoll(argv[4]), runs = atoll(argv[5]);
    uint64_t seed = strtoull(argv[6], 0, 10);
    double s = 0;
    for (int64_t r = 0; r < runs; ++r) s += batched(n, b, m, seed + r);
    printf("%.6f\n", s / double(runs));
    return 0;
  }
  fprintf(stderr, "usage: peer seq N M SEED | peer batched N B M RUNS SEED\n");
  return 2;
}
