#pragma once

namespace vbas::portable
{

/**
 * Sine and cosine, arctangent: computed with + - * / and sqrt alone, which IEEE 754 rounds exactly, in a
 * fixed order, so that the same argument gives the same bits on every platform, compiler and C library.
 * The C library's functions are accurate to about an ulp but not reproducible: their last bits differ
 * between library versions and platforms, and a release, a chain of discrete choices, can turn on them
 * (the planar frame, AzimuthalEquidistant). Accurate to a few ulps.
 */

/** Sets `sine` and `cosine` of an angle in degrees (any finite value). */
void sinCosDegrees(double degrees, double& sine, double& cosine);

/** Returns the angle of (x, y) in radians, in [-pi, pi]; 0 for (0, 0). */
double atan2(double y, double x);

/** Returns the arc cosine of `x` in radians, `x` clamped to [-1, 1]. */
double acos(double x);

/** Returns the arc sine of `x` in radians, `x` clamped to [-1, 1]. */
double asin(double x);

} // namespace vbas::portable
