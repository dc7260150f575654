// Preloaded into benchmarked processes (`node --import ./bench/cpu-exit.mjs ...`): prints the process's
// own CPU time (user + system) on stderr at exit, so figures can be read apart from machine load.
process.on('exit', () => {
  const usage = process.cpuUsage();
  process.stderr.write(`\nLORE_BENCH_CPU_MS ${((usage.user + usage.system) / 1000).toFixed(1)}\n`);
});
