// SPDX-License-Identifier: MIT
// netcc parameters as ns-3 Attributes: value conversion, netcc's checks inside an
// AttributeChecker, and one accessor over NetccParameterHolder. C++17, ns-3 headers only.
#include "netcc-ns3/attributes.h"

#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <mutex>
#include <string>

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/object-base.h"
#include "ns3/uinteger.h"

namespace ns3 {
namespace {

using netcc::ns3::controller_kind;
using netcc::ns3::param_info;
using netcc::ns3::param_value;
using netcc::ns3::value_kind;

std::mutex g_error_lock;
std::string g_last_error;

std::int64_t ClampToInt64(std::uint64_t v) {
  return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(v);
}

// An ns-3 value of the parameter's type -> the bridge's value. False if `v` is not of that type.
bool ToParam(const param_info& p, const AttributeValue& v, param_value& out) {
  switch (p.kind) {
    case value_kind::real:
      if (const auto* d = dynamic_cast<const DoubleValue*>(&v)) {
        out.real = d->Get();
        return true;
      }
      return false;
    case value_kind::integer:
      if (const auto* i = dynamic_cast<const IntegerValue*>(&v)) {
        out.integer = i->Get();
        return true;
      }
      return false;
    case value_kind::boolean:
      if (const auto* b = dynamic_cast<const BooleanValue*>(&v)) {
        out.integer = b->Get() ? 1 : 0;
        return true;
      }
      return false;
    case value_kind::bytes:
      if (const auto* u = dynamic_cast<const UintegerValue*>(&v)) {
        out.integer = ClampToInt64(u->Get());
        return true;
      }
      return false;
    case value_kind::time:
      if (const auto* t = dynamic_cast<const TimeValue*>(&v)) {
        out.integer = t->Get().GetNanoSeconds();
        return true;
      }
      return false;
    case value_kind::rate:
      if (const auto* r = dynamic_cast<const DataRateValue*>(&v)) {
        out.integer = ClampToInt64(r->Get().GetBitRate());
        return true;
      }
      return false;
    case value_kind::choice:
      if (const auto* e = dynamic_cast<const EnumValue*>(&v)) {
        out.integer = e->Get();
        return true;
      }
      return false;
  }
  return false;
}

// The bridge's value -> an ns-3 value of the parameter's type.
Ptr<AttributeValue> FromParam(const param_info& p, const param_value& v) {
  switch (p.kind) {
    case value_kind::real:
      return Create<DoubleValue>(v.real);
    case value_kind::integer:
      return Create<IntegerValue>(v.integer);
    case value_kind::boolean:
      return Create<BooleanValue>(v.integer != 0);
    case value_kind::bytes:
      return Create<UintegerValue>(v.integer < 0 ? 0 : static_cast<std::uint64_t>(v.integer));
    case value_kind::time:
      return Create<TimeValue>(NanoSeconds(v.integer));
    case value_kind::rate:
      return Create<DataRateValue>(
          DataRate(v.integer < 0 ? 0 : static_cast<std::uint64_t>(v.integer)));
    case value_kind::choice:
      return Create<EnumValue>(static_cast<int>(v.integer));
  }
  return nullptr;
}

Ptr<const AttributeChecker> TypeChecker(const param_info& p) {
  switch (p.kind) {
    case value_kind::real:
      return MakeDoubleChecker<double>();
    case value_kind::integer:
      return MakeIntegerChecker<std::int64_t>();
    case value_kind::boolean:
      return MakeBooleanChecker();
    case value_kind::bytes:
      return MakeUintegerChecker<std::uint64_t>();
    case value_kind::time:
      return MakeTimeChecker();
    case value_kind::rate:
      return MakeDataRateChecker();
    case value_kind::choice:
      break;  // NetccEnumChecker (MakeNetccChecker)
  }
  return nullptr;
}

// Reports a value netcc refused: stderr, and NetccLastAttributeError().
void Report(const controller_kind& kind, std::size_t index, const std::string& why) {
  const std::string msg =
      "netcc: " + kind.type_id + "::" + kind.params[index].attribute + ": " + why;
  {
    std::lock_guard<std::mutex> g(g_error_lock);
    g_last_error = msg;
  }
  std::cerr << msg << '\n';
}

// netcc's rule for one field (after ns-3's type check).
bool NetccAccepts(const controller_kind& kind, std::size_t index, const AttributeValue& value) {
  param_value v;
  const param_info& p = kind.params[index];
  if (!ToParam(p, value, v)) return false;
  if (p.kind == value_kind::real && !std::isfinite(v.real)) {
    Report(kind, index, p.field + " = " + std::to_string(v.real) + ": must be finite");
    return false;
  }
  const std::string why = kind.check_field(index, v);
  if (why.empty()) return true;
  Report(kind, index, why);
  return false;
}

// ns-3's type check first, then netcc's rule for the field.
class NetccParamChecker : public AttributeChecker {
 public:
  NetccParamChecker(const controller_kind& kind, std::size_t index)
      : m_kind(&kind), m_index(index), m_inner(TypeChecker(kind.params[index])) {}

  bool Check(const AttributeValue& value) const override {
    return NetccAccepts(*m_kind, m_index, value) && m_inner->Check(value);
  }
  std::string GetValueTypeName() const override { return m_inner->GetValueTypeName(); }
  bool HasUnderlyingTypeInformation() const override {
    return m_inner->HasUnderlyingTypeInformation();
  }
  std::string GetUnderlyingTypeInformation() const override {
    return m_inner->GetUnderlyingTypeInformation() + " checked by netcc as " +
           m_kind->params[m_index].field;
  }
  Ptr<AttributeValue> Create() const override { return m_inner->Create(); }
  bool Copy(const AttributeValue& source, AttributeValue& destination) const override {
    return m_inner->Copy(source, destination);
  }

 private:
  const controller_kind* m_kind;
  std::size_t m_index;
  Ptr<const AttributeChecker> m_inner;
};

// EnumValue reads its names through an EnumChecker, so an enum's checker must be one.
class NetccEnumChecker : public EnumChecker {
 public:
  NetccEnumChecker(const controller_kind& kind, std::size_t index) : m_kind(&kind), m_index(index) {
    const auto& choices = kind.params[index].choices;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (i == 0) {
        AddDefault(0, choices[0]);
      } else {
        Add(static_cast<int>(i), choices[i]);
      }
    }
  }
  bool Check(const AttributeValue& value) const override {
    return EnumChecker::Check(value) && NetccAccepts(*m_kind, m_index, value);
  }

 private:
  const controller_kind* m_kind;
  std::size_t m_index;
};

Ptr<const AttributeChecker> MakeNetccChecker(const controller_kind& kind, std::size_t index) {
  if (kind.params[index].kind == value_kind::choice) return Create<NetccEnumChecker>(kind, index);
  return Create<NetccParamChecker>(kind, index);
}

class NetccParamAccessor : public AttributeAccessor {
 public:
  NetccParamAccessor(const controller_kind& kind, std::size_t index)
      : m_kind(&kind), m_index(index) {}

  bool Set(ObjectBase* object, const AttributeValue& value) const override {
    auto* holder = dynamic_cast<NetccParameterHolder*>(object);
    param_value v;
    if (holder == nullptr || !ToParam(m_kind->params[m_index], value, v)) return false;
    holder->SetNetccParam(m_index, v);
    return true;
  }
  bool Get(const ObjectBase* object, AttributeValue& attribute) const override {
    const auto* holder = dynamic_cast<const NetccParameterHolder*>(object);
    if (holder == nullptr) return false;
    Ptr<AttributeValue> v = FromParam(m_kind->params[m_index], holder->GetNetccParam(m_index));
    return v && MakeNetccChecker(*m_kind, m_index)->Copy(*v, attribute);
  }
  bool HasGetter() const override { return true; }
  bool HasSetter() const override { return true; }

 private:
  const controller_kind* m_kind;
  std::size_t m_index;
};

}  // namespace

TypeId AddNetccAttributes(TypeId tid, const controller_kind& kind) {
  for (std::size_t i = 0; i < kind.params.size(); ++i) {
    const param_info& p = kind.params[i];
    tid.AddAttribute(p.attribute, p.help + " [netcc " + p.field + "]", *FromParam(p, p.initial),
                     Create<NetccParamAccessor>(kind, i), MakeNetccChecker(kind, i));
  }
  return tid;
}

std::string NetccLastAttributeError() {
  std::lock_guard<std::mutex> g(g_error_lock);
  return g_last_error;
}

std::vector<param_value> NetccDefaultParams(const controller_kind& kind) {
  std::vector<param_value> v;
  v.reserve(kind.params.size());
  for (const auto& p : kind.params) v.push_back(p.initial);
  return v;
}

}  // namespace ns3
