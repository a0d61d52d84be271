// The core uses Node's Buffer; in the report page it is the `buffer` package's (esbuild injects this export
// wherever the global `Buffer` is named).
export { Buffer } from 'buffer';
