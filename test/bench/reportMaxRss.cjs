// Preloaded into the benchmarked CLI process (`node -r`): prints its peak RSS and CPU time on exit, for diffBench.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`maxRssKB ${u.maxRSS} cpuMs ${Math.round((u.userCPUTime + u.systemCPUTime) / 1000)}\n`);
});
