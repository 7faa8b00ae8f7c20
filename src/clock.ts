// Milliseconds on a monotonic clock. `performance.now()` would do, but its
// first use loads perf_hooks and eight modules more: about 2 ms of cold start.
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
