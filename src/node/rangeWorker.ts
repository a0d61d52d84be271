/**
 * The range-reading worker's entry (`dist/rangeWorker.js`): registers the Node file system, then runs the
 * core's worker body (`src/core/parallel/rangeWorker.ts`), which starts on its import. The order of the two
 * imports is the point: the registration's module runs first.
 */
import './register';
import '../core/parallel/rangeWorker';
