// SPDX-License-Identifier: MIT
/// @file
/// @brief Forward declarations of netcc's core vocabulary, for headers that only name it.
///
/// Sources: none; the types are defined, with their papers, in netcc/core/ (units.hpp,
/// arith.hpp, wrap.hpp, feedback.hpp).
/// @code
/// #include <netcc/fwd.hpp>
/// struct my_flow_table;  // a header that stores windows by pointer need not see their class
/// void set_window(my_flow_table&, const netcc::bytes& w);
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <ratio>

namespace netcc {
class bytes;
class bits;
class bit_rate;
template <int IntBits, int FracBits>
class fixed_point;
template <unsigned Bits>
struct modular;
template <unsigned Bits, class Period>
struct wrapping_clock;
template <unsigned Bits, std::int64_t Unit>
struct wrapping_counter;
struct int_hop;
template <class Int>
struct basic_ack_event;
struct rtt_event;
struct cnp_event;
struct src_event;
template <class E>
struct feedback_traits;
class validation;
struct param_error;
enum class cc_event : std::uint8_t;
class event_set;
template <class C>
struct controller_traits;
template <class C>
class checked;
}  // namespace netcc
