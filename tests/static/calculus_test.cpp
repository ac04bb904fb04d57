// SPDX-License-Identifier: MIT
// static_assert-only: the number traits and concept of the calculus curves, extended values
// (+infinity on top, absorbing in sums) evaluated at compile time, breakpoint equality, and the
// size of a breakpoint (the per-segment memory of a curve).
#include <netcc/calculus/minplus.hpp>

#include <type_traits>

namespace netcc_tests::static_calculus {

namespace {

using netcc::calculus::breakpoint;
using netcc::calculus::curve_number;
using netcc::calculus::CurveNumber;
using netcc::calculus::extended;
using netcc::calculus::rational;
using xr = extended<rational>;

static_assert(CurveNumber<double>);
static_assert(CurveNumber<rational>);
static_assert(!CurveNumber<int>);  // no curve_number<int>
static_assert(!CurveNumber<float>);

static_assert(curve_number<rational>::exact && !curve_number<double>::exact);
static_assert(curve_number<rational>::ratio(2, 4) == rational::of(1, 2));
static_assert(!curve_number<rational>::good(curve_number<rational>::ratio(1, 0)));
static_assert(curve_number<rational>::mag(rational{-3}) == rational{3});
static_assert(curve_number<double>::le_rounded(1.0, 1.0, 1.0));
static_assert(curve_number<double>::le_rounded(1.0 + 1e-15, 1.0, 1.0));  // within rounding
static_assert(!curve_number<double>::le_rounded(1.0 + 1e-9, 1.0, 1.0));
static_assert(!curve_number<rational>::le_rounded(rational::of(1, 1000000), rational{0},
                                                  rational{1}));  // exact: no tolerance

// +infinity is above every number, equal to itself, and absorbs sums.
static_assert(xr{rational{5}} < xr::infinity());
static_assert(!(xr::infinity() < xr::infinity()) && xr::infinity() == xr::infinity());
static_assert(xr{rational{1}} + xr::infinity() == xr::infinity());
static_assert(xr{rational::of(1, 3)} + xr{rational::of(2, 3)} == xr{rational{1}});
static_assert(xr{rational{2}} <= xr{rational{2}} && xr{rational{3}} >= xr{rational{2}});
static_assert(xr::infinity().valid() && !xr{rational::invalid()}.valid());
static_assert(xr{}.value() == rational{0} && xr{}.is_finite());

// A token bucket's one breakpoint, compared member-wise.
constexpr breakpoint<rational> tb{rational{0}, xr{rational{0}}, xr{rational{5}}, rational{3}};
static_assert(tb == breakpoint<rational>{rational{0}, xr{}, xr{rational{5}}, rational{3}});
static_assert(!(tb == breakpoint<rational>{}));

// Per-segment memory: t, value, right limit, slope.
static_assert(sizeof(breakpoint<double>) <= 32);  // IEEE +infinity: no flag
static_assert(sizeof(breakpoint<rational>) <= 80);
static_assert(std::is_nothrow_move_constructible_v<netcc::calculus::curve>);
static_assert(std::is_nothrow_move_constructible_v<netcc::calculus::double_curve>);

}  // namespace

}  // namespace netcc_tests::static_calculus
