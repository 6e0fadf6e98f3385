//===- Finalists.cpp - Timing the fastest candidates again ----------------===//

#include "Finalists.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

std::vector<size_t> chooseFinalists(const std::vector<double> &ms, int count,
                                    double margin) {
  if (ms.empty())
    return {};
  std::vector<size_t> order(ms.size());
  for (size_t i = 0; i < ms.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_pair(ms[a], a) < std::make_pair(ms[b], b);
  });
  double limit = ms[order.front()] * (1 + margin);
  std::vector<size_t> out;
  for (size_t i : order)
    if ((int)out.size() < count && ms[i] <= limit)
      out.push_back(i);
  if (out.size() < 2)
    out.clear();
  return out;
}

void retimeFinalists(std::vector<double> &ms,
                     const std::vector<size_t> &finalists, int rounds,
                     llvm::function_ref<std::optional<double>(size_t)> time) {
  size_t n = finalists.size();
  std::vector<std::vector<double>> timings(n);
  std::vector<bool> failed(n, false);
  for (size_t k = 0; k < n; ++k)
    timings[k].push_back(ms[finalists[k]]);
  for (int r = 0; r < rounds; ++r)
    for (size_t t = 0; t < n; ++t) {
      size_t k = (t + r) % n;
      if (failed[k])
        continue;
      if (std::optional<double> once = time(finalists[k]))
        timings[k].push_back(*once);
      else
        failed[k] = true;
    }
  for (size_t k = 0; k < n; ++k) {
    std::vector<double> &v = timings[k];
    std::sort(v.begin(), v.end());
    ms[finalists[k]] =
        failed[k] ? std::numeric_limits<double>::infinity() : v[v.size() / 2];
  }
}

std::vector<size_t> getInterleavedOrder(size_t n, int calls) {
  std::vector<size_t> order;
  order.reserve(n * std::max(calls, 0));
  for (int r = 0; r < calls; ++r)
    for (size_t t = 0; t < n; ++t)
      order.push_back((t + r) % n);
  return order;
}

void interleaveFinalists(
    std::vector<double> &ms, const std::vector<size_t> &finalists, int calls,
    llvm::function_ref<void(llvm::ArrayRef<size_t> order,
                            llvm::MutableArrayRef<float> times)>
        timeCalls) {
  if (finalists.empty() || calls < 1)
    return;
  std::vector<size_t> order = getInterleavedOrder(finalists.size(), calls);
  std::vector<float> times(order.size());
  timeCalls(order, times);
  std::vector<std::vector<double>> perFinalist(finalists.size());
  for (size_t i = 0; i < order.size(); ++i)
    perFinalist[order[i]].push_back(times[i]);
  for (size_t k = 0; k < finalists.size(); ++k) {
    std::vector<double> &v = perFinalist[k];
    std::sort(v.begin(), v.end());
    ms[finalists[k]] = v[v.size() / 2];
  }
}

std::vector<size_t> rankAfterFinalists(const std::vector<double> &ms,
                                       const std::vector<size_t> &finalists) {
  std::vector<bool> isFinalist(ms.size(), false);
  for (size_t i : finalists)
    isFinalist[i] = true;
  // 0: a finalist timed again; 1: the others (a failed finalist's +inf
  // puts it after them).
  auto group = [&](size_t i) {
    return isFinalist[i] && std::isfinite(ms[i]) ? 0 : 1;
  };
  std::vector<size_t> order(ms.size());
  for (size_t i = 0; i < ms.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(group(a), ms[a], a) <
           std::make_tuple(group(b), ms[b], b);
  });
  return order;
}
