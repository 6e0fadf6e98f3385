//===- Dispatch.cpp - Choosing a library kernel from tuning tables --------===//

#include "Dispatch.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

using namespace tile::catalogue;

namespace tile {
namespace dispatch {

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

bool admits(const OpSpec &op, const KernelDesc &k, const Problem &p,
            const DeviceInfo &device) {
  return op.owns(k) &&
         runsOn(op.getTarget(k), device.ccMajor, device.ccMinor) &&
         op.admits(k, p, device);
}

namespace {
/// Whether the point has the problem's key values.
bool sameKeys(const OpSpec &op, const Problem &point, const Problem &p) {
  const std::vector<Field> &fields = op.getProblemFields();
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].key && point.values[i] != p.values[i])
      return false;
  return true;
}
} // namespace

int choose(const Library &lib, const DeviceInfo &device, const OpSpec &op,
           const Problem &p) {
  auto admitted = [&](int index) {
    return index >= 0 && (unsigned)index < lib.numKernels &&
           admits(op, lib.kernels[index].desc, p, device);
  };
  if (const TuningTable *t = selectTable(lib, device)) {
    std::vector<std::pair<std::array<double, 4>, unsigned>> order;
    for (unsigned i = 0; i < t->numPoints; ++i) {
      const TablePoint &point = t->points[i];
      if (std::strcmp(point.op, op.getName()) == 0 &&
          sameKeys(op, point.problem, p))
        order.push_back({op.distance(point.problem, p), i});
    }
    std::sort(order.begin(), order.end());
    for (const auto &[distance, i] : order)
      for (int16_t index : t->points[i].ranked) {
        if (index < 0)
          break;
        if (admitted(index))
          return index;
      }
  }
  for (const KernelDesc &k : op.getFallbackKernels())
    for (unsigned i = 0; i < lib.numKernels; ++i)
      if (lib.kernels[i].desc == k && admitted((int)i))
        return (int)i;
  for (unsigned i = 0; i < lib.numKernels; ++i)
    if (admitted((int)i))
      return (int)i;
  return -1;
}

} // namespace dispatch
} // namespace tile
