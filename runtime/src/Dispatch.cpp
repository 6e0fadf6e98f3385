//===- Dispatch.cpp - Choosing a library kernel from tuning tables --------===//

#include "Dispatch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>
#include <vector>

using namespace tile::catalogue;
using tile::embedded::EmbeddedKernel;

namespace tile {
namespace dispatch {

namespace {
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kGridYZMax = 65535;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// |log2(a / b)| for positive a and b.
double logRatio(double a, double b) { return std::fabs(std::log2(a / b)); }

bool runsHere(const KernelDesc &k, const DeviceInfo &d) {
  return runsOn(getTarget(k), d.ccMajor, d.ccMinor);
}
} // namespace

const TuningTable *selectTable(const Library &lib, const DeviceInfo &device) {
  if (lib.numTables == 0)
    return nullptr;
  auto find = [&](auto matches) -> const TuningTable * {
    for (unsigned i = 0; i < lib.numTables; ++i)
      if (matches(lib.tables[i].device))
        return &lib.tables[i];
    return nullptr;
  };
  auto sameName = [&](const DeviceKey &k) { return device.name == k.name; };
  if (const TuningTable *t = find([&](const DeviceKey &k) {
        return sameName(k) && k.sms == device.sms;
      }))
    return t;
  if (const TuningTable *t = find(sameName))
    return t;
  if (const TuningTable *t = find([&](const DeviceKey &k) {
        return k.ccMajor == device.ccMajor && k.ccMinor == device.ccMinor;
      }))
    return t;
  if (const TuningTable *t =
          find([&](const DeviceKey &k) { return k.ccMajor == device.ccMajor; }))
    return t;
  return &lib.tables[0];
}

bool admits(const KernelDesc &desc, const SoftmaxQuery &q,
            const DeviceInfo &device) {
  if (desc.op != Op::Softmax || !runsHere(desc, device))
    return false;
  const SoftmaxKernel &k = desc.softmax;
  if (k.dtype != q.dtype || k.alignment > q.alignment)
    return false;
  switch (k.scheme) {
  case SoftmaxScheme::Rows:
  case SoftmaxScheme::PersistentRows:
    return int64_t(k.block) + k.tail >= q.cols;
  case SoftmaxScheme::Online:
    return true;
  case SoftmaxScheme::Cluster:
    return int64_t(k.block) * k.clusterSize >= q.cols &&
           q.rows * k.clusterSize <= kInt32Max;
  case SoftmaxScheme::ClusterLoop:
    return q.rows * k.clusterSize <= kInt32Max;
  case SoftmaxScheme::Grid: {
    // Every program of a row resident at once (one per SM suffices), and
    // the workspace allocated in stream order.
    int64_t slices = ceilDiv(q.cols, k.block);
    return slices <= kGridMaxSlices && slices <= device.sms &&
           q.rows * slices <= kInt32Max && device.streamOrderedAllocation;
  }
  }
  return false;
}

bool admits(const KernelDesc &desc, const SoftmaxMatmulQuery &q,
            const DeviceInfo &device) {
  if (desc.op != Op::SoftmaxMatmul || !runsHere(desc, device))
    return false;
  const SoftmaxMatmulKernel &k = desc.softmaxMatmul;
  if (k.dtype != q.dtype || k.precision != q.precision)
    return false;
  if (k.residentProducts && q.d2 > k.blockK)
    return false;
  if (k.tma && !q.tmaReadable)
    return false;
  return ceilDiv(q.d3, columnsPerProgram(k)) <= kGridYZMax &&
         ceilDiv(q.d1, k.blockM) <= kInt32Max && q.batch <= kGridYZMax;
}

namespace {
/// The first ranked kernel, over points in `order`, that admits `q`.
template <typename Point, typename Query>
int firstAdmitted(const Library &lib, const DeviceInfo &device,
                  const Point *points, const std::vector<unsigned> &order,
                  const Query &q) {
  for (unsigned p : order)
    for (int16_t index : points[p].ranked) {
      if (index < 0 || (unsigned)index >= lib.numKernels)
        break;
      if (admits(lib.kernels[index].desc, q, device))
        return index;
    }
  return -1;
}
} // namespace

int chooseSoftmax(const Library &lib, const DeviceInfo &device,
                  const SoftmaxQuery &q) {
  if (const TuningTable *t = selectTable(lib, device)) {
    std::vector<unsigned> order;
    for (unsigned i = 0; i < t->numSoftmax; ++i)
      if (t->softmax[i].dtype == q.dtype)
        order.push_back(i);
    auto key = [&](unsigned i) {
      const SoftmaxPoint &p = t->softmax[i];
      return std::make_tuple(p.alignment != q.alignment, p.cols < q.cols,
                             logRatio(p.cols, q.cols),
                             logRatio(p.rows, q.rows));
    };
    std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return std::make_pair(key(a), a) < std::make_pair(key(b), b);
    });
    int index = firstAdmitted(lib, device, t->softmax, order, q);
    if (index >= 0)
      return index;
  }
  // The online kernel of the best class the rows allow, else anything.
  int best = -1;
  for (unsigned i = 0; i < lib.numKernels; ++i) {
    const KernelDesc &k = lib.kernels[i].desc;
    if (k.op == Op::Softmax && k.softmax.scheme == SoftmaxScheme::Online &&
        admits(k, q, device) &&
        (best < 0 ||
         k.softmax.alignment > lib.kernels[best].desc.softmax.alignment))
      best = (int)i;
  }
  if (best >= 0)
    return best;
  for (unsigned i = 0; i < lib.numKernels; ++i)
    if (admits(lib.kernels[i].desc, q, device))
      return (int)i;
  return -1;
}

int chooseSoftmaxMatmul(const Library &lib, const DeviceInfo &device,
                        const SoftmaxMatmulQuery &q) {
  if (const TuningTable *t = selectTable(lib, device)) {
    std::vector<unsigned> order;
    for (unsigned i = 0; i < t->numSoftmaxMatmul; ++i)
      if (t->softmaxMatmul[i].dtype == q.dtype &&
          t->softmaxMatmul[i].precision == q.precision)
        order.push_back(i);
    auto key = [&](unsigned i) {
      const SoftmaxMatmulPoint &p = t->softmaxMatmul[i];
      double distance =
          logRatio(double(p.batch) * p.d1, double(q.batch) * q.d1) +
          logRatio(p.d2, q.d2) + logRatio(p.d3, q.d3);
      return std::make_tuple(p.tmaReadable != q.tmaReadable, distance, -p.d2);
    };
    std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return std::make_pair(key(a), a) < std::make_pair(key(b), b);
    });
    int index = firstAdmitted(lib, device, t->softmaxMatmul, order, q);
    if (index >= 0)
      return index;
  }
  for (unsigned i = 0; i < lib.numKernels; ++i) {
    const KernelDesc &k = lib.kernels[i].desc;
    if (k.op == Op::SoftmaxMatmul &&
        k.softmaxMatmul.product == MatmulProduct::Mma &&
        k.softmaxMatmul.stages == 0 && !k.softmaxMatmul.residentProducts &&
        admits(k, q, device))
      return (int)i;
  }
  for (unsigned i = 0; i < lib.numKernels; ++i)
    if (admits(lib.kernels[i].desc, q, device))
      return (int)i;
  return -1;
}

} // namespace dispatch
} // namespace tile
