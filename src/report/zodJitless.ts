// Imported first by the report host, before any schema exists: zod would otherwise probe `new Function` to
// compile validators, which the report's CSP (no 'unsafe-eval') refuses and reports as a violation.
import * as z from 'zod';

z.config({ jitless: true });
