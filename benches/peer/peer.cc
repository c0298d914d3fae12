// The C++ baseline of BENCHMARKS.md: a balls-into-bins simulator written the way research
// experiment code for the batched setting usually is (and the way the batched paper's published
// experiment code is structured): a process is a std::function that picks a bin index from the
// load vector, drawing from a std::mt19937 with a std::uniform_int_distribution made per call;
// a batch allocates its balls one by one into a buffer on the loads of the batch start, then the
// loads are updated and re-sorted (heaviest first) with std::sort. Sequential runs call the same
// selectors on the live load vector (no sorting: the processes measured sequentially compare
// loads, so they do not need sorted indices).
//
//   g++ -O3 -march=native -o peer peer.cc
//   ./peer batched PROCESS N B M RUNS SEED   mean and standard error of the max gap over batch ends
//   ./peer seq PROCESS N M RUNS SEED         mean and standard error of the final gap
//
// PROCESS: one-choice, two-choice, three-choice, one-plus-beta=<beta>. Two-Choice and (1+β)
// break ties at random (the first sample wins a tie, and it is a uniform member of the pair);
// Three-Choice takes the largest of three sorted indices (batched only). The gap is
// max load − W/n, in double precision. Output: `mean stderr runs`.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

using Load = uint64_t;
using Selector = std::function<size_t(const std::vector<Load>&, std::mt19937&)>;

static Selector make_selector(const std::string& name) {
  if (name == "one-choice") {
    return [](const std::vector<Load>& x, std::mt19937& g) {
      std::uniform_int_distribution<size_t> pick(0, x.size() - 1);
      return pick(g);
    };
  }
  if (name == "two-choice") {
    return [](const std::vector<Load>& x, std::mt19937& g) {
      std::uniform_int_distribution<size_t> pick(0, x.size() - 1);
      size_t a = pick(g), b = pick(g);
      return x[a] <= x[b] ? a : b;
    };
  }
  if (name == "three-choice") {
    // On the sorted vector (heaviest first) the largest index is the least loaded sample.
    return [](const std::vector<Load>& x, std::mt19937& g) {
      std::uniform_int_distribution<size_t> pick(0, x.size() - 1);
      size_t a = pick(g);
      for (int i = 1; i < 3; ++i) a = std::max(a, pick(g));
      return a;
    };
  }
  if (name.rfind("one-plus-beta=", 0) == 0) {
    double beta = std::atof(name.c_str() + 14);
    return [beta](const std::vector<Load>& x, std::mt19937& g) {
      std::bernoulli_distribution coin(beta);
      std::uniform_int_distribution<size_t> pick(0, x.size() - 1);
      size_t a = pick(g);
      if (!coin(g)) return a;
      size_t b = pick(g);
      return x[a] <= x[b] ? a : b;
    };
  }
  std::fprintf(stderr, "unknown process %s\n", name.c_str());
  std::exit(2);
}

// One batched run: the max over batch ends of max load − W/n.
static double batched_run(size_t n, size_t b, size_t m, const Selector& sel, std::mt19937& g) {
  std::vector<Load> load(n, 0), buffer(n, 0);
  Load total = 0, max_load = 0;
  double max_gap = -1e300;
  for (size_t done = 0; done < m; done += b) {
    for (size_t t = 0; t < b; ++t) {
      buffer[sel(load, g)] += 1;
      total += 1;
    }
    for (size_t i = 0; i < n; ++i) {
      load[i] += buffer[i];
      buffer[i] = 0;
      max_load = std::max(max_load, load[i]);
    }
    std::sort(load.begin(), load.end(), std::greater<Load>());
    max_gap = std::max(max_gap, double(max_load) - double(total) / double(n));
  }
  return max_gap;
}

// One sequential run: the final gap.
static double seq_run(size_t n, size_t m, const Selector& sel, std::mt19937& g) {
  std::vector<Load> load(n, 0);
  Load max_load = 0;
  for (size_t t = 0; t < m; ++t) {
    size_t k = sel(load, g);
    if (++load[k] > max_load) max_load = load[k];
  }
  return double(max_load) - double(m) / double(n);
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  std::vector<double> v;
  if (mode == "batched" && argc == 8) {
    Selector sel = make_selector(argv[2]);
    size_t n = std::atoll(argv[3]), b = std::atoll(argv[4]), m = std::atoll(argv[5]);
    long runs = std::atol(argv[6]);
    std::mt19937 g(std::strtoul(argv[7], nullptr, 10));
    for (long r = 0; r < runs; ++r) v.push_back(batched_run(n, b, m, sel, g));
  } else if (mode == "seq" && argc == 7) {
    Selector sel = make_selector(argv[2]);
    size_t n = std::atoll(argv[3]), m = std::atoll(argv[4]);
    long runs = std::atol(argv[5]);
    std::mt19937 g(std::strtoul(argv[6], nullptr, 10));
    for (long r = 0; r < runs; ++r) v.push_back(seq_run(n, m, sel, g));
  } else {
    std::fprintf(stderr,
                 "usage: peer batched PROCESS N B M RUNS SEED | peer seq PROCESS N M RUNS SEED\n");
    return 2;
  }
  double mean = 0, var = 0;
  for (double x : v) mean += x;
  mean /= v.size();
  for (double x : v) var += (x - mean) * (x - mean);
  double se = v.size() > 1 ? std::sqrt(var / (v.size() - 1) / v.size()) : 0.0;
  std::printf("%.6f %.6f %zu\n", mean, se, v.size());
  return 0;
}
