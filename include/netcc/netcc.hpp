// SPDX-License-Identifier: MIT
/// @file
/// @brief Everything in the library proper: core, fabric, control and calculus. The testbench
/// and the adapters are included explicitly.
///
/// Sources: those of the headers it includes, each cited on its own page.
///
/// @code
/// #include <netcc/netcc.hpp>
/// using namespace netcc::literals;
/// netcc::bytes bdp = 100_Gbps * 10_us;
/// @endcode
#pragma once

#include "netcc/calculus/cc_driver.hpp"
#include "netcc/calculus/closure.hpp"
#include "netcc/calculus/curve.hpp"
#include "netcc/calculus/maxplus.hpp"
#include "netcc/calculus/minplus.hpp"
#include "netcc/calculus/path_server.hpp"
#include "netcc/calculus/rational.hpp"
#include "netcc/calculus/upp.hpp"
#include "netcc/calculus/upp_ops.hpp"
#include "netcc/control/bolt_sender.hpp"
#include "netcc/control/controller_concepts.hpp"
#include "netcc/control/dcqcn.hpp"
#include "netcc/control/dctcp.hpp"
#include "netcc/control/fasttune.hpp"
#include "netcc/control/hpcc.hpp"
#include "netcc/control/int_utilisation.hpp"
#include "netcc/control/make.hpp"
#include "netcc/control/powertcp.hpp"
#include "netcc/control/swift.hpp"
#include "netcc/control/timely.hpp"
#include "netcc/control/vegas.hpp"
#include "netcc/core.hpp"
#include "netcc/fabric/bolt.hpp"
#include "netcc/fabric/bolt_header.hpp"
#include "netcc/fabric/bolt_supply.hpp"
#include "netcc/fabric/dcqcn_np.hpp"
#include "netcc/fabric/fasttune_switch.hpp"
#include "netcc/fabric/int_push.hpp"
#include "netcc/fabric/pfc.hpp"
#include "netcc/fabric/red_ecn.hpp"
#include "netcc/fabric/token_bucket.hpp"
#include "netcc/version.hpp"
