// How fair a die looks (P-DICE-STATS): Pearson's χ² of the counts of faces 1..6 against a fair
// die and its p-value, computed step for step as crates/dice computes them (FaceCounts,
// regularized_upper_gamma), so that the page and the hall show the same figures.

/** Faces of a die. */
export const FACES = 6;

const EPSILON = 1e-15;
const MAX_TERMS = 1000;
const TINY = 1e-300;
// Lanczos's coefficients for g = 7, n = 9 (as crates/dice/src/gamma.rs).
const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531,
  -176.6150291621406, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-6,
  1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function lnGamma(x) {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  const t = z + 7.5;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i += 1) sum += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

function lowerSeries(a, x) {
  let term = 1 / a;
  let sum = term;
  let denominator = a;
  for (let i = 0; i < MAX_TERMS; i += 1) {
    denominator += 1;
    term *= x / denominator;
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum;
}

function upperFraction(a, x) {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < MAX_TERMS; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return fraction;
}

/** Q(a, x), the regularised upper incomplete gamma function (a > 0, x ≥ 0; NaN otherwise). */
export function regularizedUpperGamma(a, x) {
  if (Number.isNaN(a) || Number.isNaN(x) || a <= 0 || x < 0) return NaN;
  if (x === 0) return 1;
  const front = Math.exp(a * Math.log(x) - x - lnGamma(a));
  return x < a + 1 ? 1 - front * lowerSeries(a, x) : front * upperFraction(a, x);
}

/** The p-value of a χ² statistic: Q(df / 2, statistic / 2). */
export function chiSquarePValue(statistic, degreesOfFreedom) {
  return regularizedUpperGamma(degreesOfFreedom / 2, statistic / 2);
}

/**
 * The χ² test of `counts` (six counts, faces 1..6; e.g. the `/api` counts) against a fair die:
 * {rolls, expected, statistic, degreesOfFreedom, pValue}, or null before any roll.
 */
export function chiSquare(counts) {
  if (!Array.isArray(counts) || counts.length !== FACES) throw new RangeError('six face counts');
  const rolls = counts.reduce((sum, c) => sum + c, 0);
  if (rolls === 0) return null;
  const expected = rolls / FACES;
  let statistic = 0;
  for (const observed of counts) {
    const gap = observed - expected;
    statistic += (gap * gap) / expected;
  }
  const degreesOfFreedom = FACES - 1;
  return { rolls, expected, statistic, degreesOfFreedom, pValue: chiSquarePValue(statistic, degreesOfFreedom) };
}

/** Six face counts of these die values (values outside 1..6 are not counted). */
export function faceCounts(rolls) {
  const counts = new Array(FACES).fill(0);
  for (const face of rolls) if (Number.isInteger(face) && face >= 1 && face <= FACES) counts[face - 1] += 1;
  return counts;
}
