// SPDX-License-Identifier: MIT
/// @file
/// @brief Max-plus operations on netcc::calculus::basic_curve: convolution and deconvolution,
/// computed exactly by duality with the min-plus ones of netcc/calculus/minplus.hpp.
///
/// Sources: Bouillard, Boyer, Le Corronc, "Deterministic Network Calculus", 2018, the max-plus
/// chapter; Le Boudec, Thiran, "Network Calculus", 2001, §3.2 (max-plus algebra).
///
/// What is implemented
/// - Max-plus convolution (f ⊗̄ g)(t) = sup_{0 <= s <= t} { f(s) + g(t - s) }, as
///   f ⊗̄ g = -((-f) ⊗ (-g)) with the min-plus netcc::calculus::convolve.
/// - Max-plus deconvolution (f ⊘̄ g)(t) = inf_{u >= 0} { f(t + u) - g(u) }, as
///   f ⊘̄ g = -((-f) ⊘ (-g)) with the min-plus netcc::calculus::deconvolve.
/// - The pointwise negation -f of a finite curve (netcc::calculus::negate), which the two
///   dualities need.
/// - The same three on ultimately pseudo-periodic curves (netcc/calculus/upp.hpp): negate,
///   maxplus_convolve and maxplus_deconvolve of basic_upp, by duality with the UPP convolution
///   and the UPP deconvolution (netcc/calculus/upp_ops.hpp), with the same -infinity choice
///   (finite operands only; a -infinity result is curve_error::undefined).
///
/// The -infinity choice: netcc's curves take the value +infinity but never -infinity (the
/// min-plus zero element is +infinity; the max-plus one would be -infinity). Negating a curve
/// that takes +infinity would need -infinity, so the max-plus operations accept only finite
/// operands (basic_curve::is_finite) and return an invalid curve with
/// curve_error::precondition otherwise, as minplus.hpp reports a missing property. A finite
/// pair can still have a max-plus deconvolution of -infinity (the infimum is unbounded below,
/// e.g. when g grows faster than f): that result is not representable and is reported as
/// curve_error::undefined. The max-plus convolution of two finite curves is always finite (a
/// supremum over the compact [0, t] of a piecewise-linear function with finitely many pieces).
///
/// Laws (tested on random exact curves): ⊗̄ is commutative and associative; both operations
/// agree with their definitions evaluated by brute force; for non-decreasing f, g,
/// f ⊗̄ g >= f ⊗ g pointwise.
///
/// Complexity: one negation of each operand and of the result (O(n)) plus the min-plus
/// operation on the negated curves (see minplus.hpp; the convex / concave fast paths of
/// convolve apply to the negated operands, so concave ⊗̄ concave is the slope merge).
///
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// const curve f = curve::rate(rational{1});   // t
/// const curve g = curve::rate(rational{2});   // 2 t
/// const curve h = maxplus_convolve(f, g);     // sup_s {s + 2 (t - s)} = 2 t
/// const curve d = maxplus_deconvolve(g, f);   // inf_u {2 (t + u) - u} = 2 t
/// bool refused = !maxplus_convolve(f, curve::delay(rational{1})).valid();   // +infinity
/// @endcode
#pragma once

#include "netcc/calculus/curve.hpp"
#include "netcc/calculus/minplus.hpp"
#include "netcc/calculus/upp.hpp"
#include "netcc/calculus/upp_ops.hpp"

namespace netcc::calculus {

/// @brief The pointwise negation (-f)(t) = -f(t) of a finite curve (values, right limits and
/// slopes negated). O(n).
///
/// An invalid f is returned as is; a curve that takes +infinity has no negation in netcc (it
/// would take -infinity, which curves do not represent) and gives curve_error::precondition;
/// an exact number whose negation overflows gives curve_error::overflow.
/// @code
/// using netcc::calculus::curve;
/// auto m = negate(curve::token_bucket(1, 4));   // 0 at 0, -4 - t for t > 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> negate(const basic_curve<T>& f) {
  if (!f.valid()) return f;
  if (!f.is_finite()) return basic_curve<T>::invalid(curve_error::precondition);
  return basic_curve<T>::zero() - f;
}

}  // namespace netcc::calculus

namespace netcc::detail {

// The max-plus operation dual to the min-plus `op`: -((-f) op (-g)), for curves and for UPP
// curves (C) alike, with `finite(x)` saying that x takes no +infinity. The checks shared by
// every max-plus operation: an invalid operand is returned as is (f first), an operand taking
// +infinity gives curve_error::precondition, a failed negation or `op` its error, and a
// min-plus result taking +infinity (-infinity after negation) curve_error::undefined.
// `negate` is found by argument-dependent lookup (netcc::calculus) for either curve type.
template <class C, class Finite, class Op>
C maxplus_by_duality(const C& f, const C& g, Finite finite, Op op) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  if (!finite(f) || !finite(g)) return C::invalid(calculus::curve_error::precondition);
  const C nf = negate(f);
  if (!nf.valid()) return nf;
  const C ng = negate(g);
  if (!ng.valid()) return ng;
  const C m = op(nf, ng);
  if (!m.valid()) return m;
  if (!finite(m)) return C::invalid(calculus::curve_error::undefined);
  return negate(m);
}

// basic_curve::is_finite as a function object for maxplus_by_duality.
inline constexpr auto curve_is_finite = [](const auto& c) { return c.is_finite(); };

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief Max-plus convolution (f ⊗̄ g)(t) = sup_{0 <= s <= t} { f(s) + g(t - s) }, computed
/// exactly as -((-f) ⊗ (-g)) (Le Boudec, Thiran §3.2).
///
/// Both operands must be finite (basic_curve::is_finite): a curve that takes +infinity gives
/// curve_error::precondition (netcc has no -infinity, see the file comment). An invalid
/// operand is returned as is (the first one's error first); an overflow gives
/// curve_error::overflow. Commutative and associative (tested).
/// @code
/// using netcc::calculus::curve;
/// auto h = maxplus_convolve(curve::token_bucket(1, 4), curve::rate(2));
/// // sup over s of the burst 4 (taken for s > 0) plus the larger rate: 4 + 2 t for t > 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> maxplus_convolve(const basic_curve<T>& f, const basic_curve<T>& g) {
  // The min-plus convolution of two finite curves is finite; a +infinity in it would be a bug
  // of the min-plus layer, reported (curve_error::undefined) rather than negated.
  return detail::maxplus_by_duality(
      f, g, detail::curve_is_finite,
      [](const basic_curve<T>& a, const basic_curve<T>& b) { return convolve(a, b); });
}

/// @brief Max-plus deconvolution (f ⊘̄ g)(t) = inf_{u >= 0} { f(t + u) - g(u) }, computed
/// exactly as -((-f) ⊘ (-g)) (Le Boudec, Thiran §3.2).
///
/// Both operands must be finite (curve_error::precondition otherwise, as for
/// maxplus_convolve). Where the infimum is unbounded below (-infinity, e.g. g grows faster
/// than f) the result is not representable: curve_error::undefined. An invalid operand is
/// returned as is; an overflow gives curve_error::overflow.
/// @code
/// using netcc::calculus::curve;
/// auto d = maxplus_deconvolve(curve::rate(2), curve::rate(1));   // inf_u {2 t + u} = 2 t
/// bool minus_inf = !maxplus_deconvolve(curve::rate(1), curve::rate(2)).valid();   // true
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> maxplus_deconvolve(const basic_curve<T>& f, const basic_curve<T>& g) {
  // +infinity in the min-plus result is -infinity in the max-plus one (curve_error::undefined).
  return detail::maxplus_by_duality(
      f, g, detail::curve_is_finite,
      [](const basic_curve<T>& a, const basic_curve<T>& b) { return deconvolve(a, b); });
}

}  // namespace netcc::calculus

namespace netcc::detail {

// f as a UPP curve takes no +infinity (value or limit) anywhere.
template <class T>
bool upp_all_finite(const calculus::basic_upp<T>& f) {
  if (!f.valid() || f.periodic_infinite()) return false;
  const T end = f.transient() + f.period();
  for (const auto& p : f.base().breakpoints()) {
    if (!(p.t < end)) break;
    if (p.value.is_inf() || p.right.is_inf()) return false;
  }
  return f.base().left_limit(end).is_finite() && f.base().at(end).is_finite();
}

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief The pointwise negation -f of a finite UPP curve: the base negated on its transient
/// and first period, the rise negated (the period and transient are those of f). O(n).
///
/// An invalid f is returned as is; a curve that takes +infinity gives
/// curve_error::precondition (no -infinity, as for curves); an overflow gives
/// curve_error::overflow.
/// @code
/// using netcc::calculus::upp;
/// auto m = negate(upp::packetizer(2));   // -2 floor(t / 2)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> negate(const basic_upp<T>& f) {
  using ext = extended<T>;
  if (!f.valid()) return f;
  if (!detail::upp_all_finite(f)) return basic_upp<T>::invalid(curve_error::precondition);
  const T end = f.transient() + f.period();
  const basic_curve<T> w = f.unroll(end);
  if (!w.valid()) return basic_upp<T>::invalid(w.error());
  detail::curve_builder<T> b;
  const auto neg = [&b](const ext& x) { return b.chk(ext{T{} - x.value()}); };
  for (const auto& p : w.breakpoints()) {
    if (!(p.t < end)) break;
    b.push(p.t, neg(p.value), neg(p.right), b.chk(T{} - p.slope));
  }
  b.push(end, neg(w.at(end)), ext::infinity(), T{});
  const T c = T{} - f.rise();
  if (!curve_number<T>::good(c)) return basic_upp<T>::invalid(curve_error::overflow);
  const basic_curve<T> base = b.finish();
  if (!base.valid()) return basic_upp<T>::invalid(base.error());
  return basic_upp<T>::make(base, f.transient(), f.period(), c);
}

/// @brief Max-plus convolution of UPP curves, (f ⊗̄ g)(t) = sup_{0 <= s <= t} { f(s) +
/// g(t - s) } = -((-f) ⊗ (-g)) with the min-plus UPP convolution of netcc/calculus/upp.hpp
/// (Le Boudec, Thiran §3.2; Bouillard, Boyer, Le Corronc, the max-plus chapter). The result is
/// UPP (the class is closed under negation and min-plus convolution).
///
/// Both operands must be finite everywhere (curve_error::precondition otherwise, as for
/// curves: -infinity is not represented). An invalid operand is returned as is (f first);
/// overflow or incommensurable double periods give the error of the UPP convolution.
/// @code
/// using netcc::calculus::upp;
/// auto h = maxplus_convolve(upp::packetizer(2), upp::packetizer(3));
/// // sup_s 2 floor(s / 2) + 3 floor((t - s) / 3)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> maxplus_convolve(const basic_upp<T>& f, const basic_upp<T>& g) {
  // finite operands have a finite min-plus convolution; +infinity would be a bug below
  return netcc::detail::maxplus_by_duality(
      f, g, [](const basic_upp<T>& x) { return detail::upp_all_finite(x); },
      [](const basic_upp<T>& a, const basic_upp<T>& b) { return convolve(a, b); });
}

/// @brief Max-plus deconvolution of UPP curves, (f ⊘̄ g)(t) = inf_{u >= 0} { f(t + u) -
/// g(u) } = -((-f) ⊘ (-g)) with the min-plus UPP deconvolution of netcc/calculus/upp_ops.hpp
/// (Le Boudec, Thiran §3.2).
///
/// Both operands must be finite everywhere (curve_error::precondition otherwise). Where the
/// infimum is -infinity (g grows faster than f: the min-plus deconvolution of the negations
/// is +infinity) the result is not representable: curve_error::undefined, as for curves. An
/// invalid operand is returned as is (f first).
/// @code
/// using netcc::calculus::upp;
/// auto d = maxplus_deconvolve(upp::from_curve(netcc::calculus::curve::rate(2)),
///                             upp::packetizer(1));   // inf_u {2 (t + u) - floor(u)} = 2 t
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> maxplus_deconvolve(const basic_upp<T>& f, const basic_upp<T>& g) {
  // +infinity anywhere in the min-plus result is -infinity in the max-plus one
  return netcc::detail::maxplus_by_duality(
      f, g, [](const basic_upp<T>& x) { return detail::upp_all_finite(x); },
      [](const basic_upp<T>& a, const basic_upp<T>& b) { return deconvolve(a, b); });
}

}  // namespace netcc::calculus
