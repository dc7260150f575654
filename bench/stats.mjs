// Statistics shared by the benchmark scripts: linear-interpolated quantiles and one summary shape.

/** The q-quantile (0..1) of `values`, interpolated between neighbours; NaN for no values. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** n, p50, p90, p99, min and max of a list of timings. */
export function summarize(values) {
  return {
    n: values.length,
    p50: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    p99: quantile(values, 0.99),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}
