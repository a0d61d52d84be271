// Mocha reporter: the spec reporter's output, plus the suite's counts written to test-results/<suite>.json
// so that `npm test` can print one closing line `N passed, N failed` over all suites.
'use strict';
const Mocha = require('mocha');
const fs = require('node:fs');
const path = require('node:path');

class CountingSpec extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const suite = process.env.TEST_SUITE_NAME || 'unit';
    runner.once('end', () => {
      const dir = path.join(__dirname, '..', 'test-results');
      fs.mkdirSync(dir, { recursive: true });
      const s = runner.stats || {};
      fs.writeFileSync(path.join(dir, `${suite}.json`), JSON.stringify({ suite, passed: s.passes || 0, failed: s.failures || 0, pending: s.pending || 0 }));
    });
  }
}
module.exports = CountingSpec;
