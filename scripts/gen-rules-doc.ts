// Writes docs/rules.md from the rule catalog.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { renderRulesDoc } from '../src/core/checks/rulesDoc';
import { allRules } from '../src/core/formatRules';

const root = join(__dirname, '..');
mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(join(root, 'docs', 'rules.md'), renderRulesDoc(allRules()));
