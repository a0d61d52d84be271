// node:os in the report page: one thread (the parallel reader is not used in a report).
export function availableParallelism(): number {
  return 1;
}
export const EOL = '\n';
