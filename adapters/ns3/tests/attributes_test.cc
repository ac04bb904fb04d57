// SPDX-License-Identifier: MIT
// netcc controllers as ns-3 TypeIds: registration, Attributes with netcc's defaults, and
// netcc's field/value/rule messages for bad values through ns-3's usual paths.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "netcc-ns3/bridge.h"
#include "netcc-ns3/tcp-congestion-ops.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace {

TEST(Ns3TypeIds, EveryTcpControllerIsRegisteredUnderNetccTcpCongestionOps) {
  const char* names[] = {"ns3::NetccVegas",    "ns3::NetccDctcp",  "ns3::NetccDctcpCounting",
                         "ns3::NetccSwift",    "ns3::NetccTimely", "ns3::NetccThetaPowerTcp",
                         "ns3::NetccPowerTcp", "ns3::NetccHpcc",   "ns3::NetccFastTune"};
  for (const char* n : names) {
    ns3::TypeId tid;
    ASSERT_TRUE(ns3::TypeId::LookupByNameFailSafe(n, &tid)) << n;
    EXPECT_EQ(tid.GetParent(), ns3::NetccTcpCongestionOps::GetTypeId()) << n;
    EXPECT_TRUE(tid.HasConstructor()) << n;
    const auto* kind = netcc::ns3::find_controller_kind(n);
    ASSERT_NE(kind, nullptr) << n;
    EXPECT_EQ(tid.GetAttributeN(), kind->params.size()) << n;
  }
  // DCQCN and Bolt need CNPs and SRCs, which TCP does not carry.
  ns3::TypeId tid;
  EXPECT_FALSE(ns3::TypeId::LookupByNameFailSafe("ns3::NetccDcqcn", &tid));
  EXPECT_FALSE(ns3::TypeId::LookupByNameFailSafe("ns3::NetccBolt", &tid));
}

TEST(Ns3TypeIds, AttributesStartAtNetccDefaultsAndReadBackWhatWasSet) {
  ns3::ObjectFactory f("ns3::NetccVegas");
  f.Set("Alpha", ns3::DoubleValue(1.0));
  f.Set("Beta", ns3::DoubleValue(3.0));
  ns3::Ptr<ns3::Object> o = f.Create();
  ns3::DoubleValue alpha, beta, gamma;
  o->GetAttribute("Alpha", alpha);
  o->GetAttribute("Beta", beta);
  o->GetAttribute("Gamma", gamma);
  EXPECT_EQ(alpha.Get(), 1.0);
  EXPECT_EQ(beta.Get(), 3.0);
  EXPECT_EQ(gamma.Get(), 1.0);  // netcc::vegas_params{}.gamma

  ns3::Ptr<ns3::Object> d = ns3::ObjectFactory("ns3::NetccDctcp").Create();
  ns3::DoubleValue g;
  d->GetAttribute("G", g);
  EXPECT_EQ(g.Get(), 1.0 / 16);  // DCTCP §3.1's g
  ns3::Ptr<ns3::Object> p = ns3::ObjectFactory("ns3::NetccPowerTcp").Create();
  ns3::TimeValue tau;
  p->GetAttribute("BaseRtt", tau);
  EXPECT_EQ(tau.Get(), ns3::NanoSeconds(28'000));
  ns3::StringValue src;
  p->GetAttribute("TauSource", src);
  EXPECT_EQ(src.Get(), "Configured");
}

TEST(Ns3TypeIds, BadValuesAreRefusedWithNetccsFieldValueAndRule) {
  EXPECT_FALSE(ns3::Config::SetDefaultFailSafe("ns3::NetccDctcp::G", ns3::DoubleValue(2.0)));
  EXPECT_EQ(ns3::NetccLastAttributeError(),
            "netcc: ns3::NetccDctcp::G: dctcp.g = 2: must be in (0, 1]");
  // Through a string, as from the command line.
  EXPECT_FALSE(ns3::Config::SetDefaultFailSafe("ns3::NetccPowerTcp::Gamma", ns3::StringValue("0")));
  EXPECT_NE(ns3::NetccLastAttributeError().find("powertcp.gamma = 0: must be in (0, 1]"),
            std::string::npos)
      << ns3::NetccLastAttributeError();
  EXPECT_FALSE(ns3::Config::SetDefaultFailSafe(
      "ns3::NetccVegas::Alpha", ns3::DoubleValue(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_NE(ns3::NetccLastAttributeError().find("vegas.alpha = nan: must be finite"),
            std::string::npos)
      << ns3::NetccLastAttributeError();
  // A good value still goes through, and the object sees it.
  EXPECT_TRUE(ns3::Config::SetDefaultFailSafe("ns3::NetccDctcp::G", ns3::DoubleValue(0.125)));
  ns3::DoubleValue g;
  ns3::ObjectFactory("ns3::NetccDctcp").Create()->GetAttribute("G", g);
  EXPECT_EQ(g.Get(), 0.125);
  EXPECT_TRUE(ns3::Config::SetDefaultFailSafe("ns3::NetccDctcp::G", ns3::DoubleValue(1.0 / 16)));
  // On an object, SetAttributeFailSafe refuses and keeps the old value.
  ns3::Ptr<ns3::Object> s = ns3::ObjectFactory("ns3::NetccSwift").Create();
  EXPECT_FALSE(s->SetAttributeFailSafe("MaxMdf", ns3::DoubleValue(1.5)));
  EXPECT_NE(ns3::NetccLastAttributeError().find("swift.max_mdf = 1.5"), std::string::npos)
      << ns3::NetccLastAttributeError();
  ns3::DoubleValue mdf;
  s->GetAttribute("MaxMdf", mdf);
  EXPECT_EQ(mdf.Get(), 0.5);
}

TEST(Ns3TypeIds, AnUnknownTypeIdIsNotFound) {
  ns3::TypeId tid;
  EXPECT_FALSE(ns3::TypeId::LookupByNameFailSafe("ns3::NetccNoSuchThing", &tid));
  EXPECT_EQ(netcc::ns3::find_controller_kind("no-such-thing"), nullptr);
}

}  // namespace
