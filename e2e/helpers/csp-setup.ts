import { afterAll, afterEach } from 'vitest';
import { expectNoCspViolations } from './csp.ts';

// Every browser scenario fails on a Content-Security-Policy violation in any page it opened (e2e/helpers/csp.ts).
afterEach(() => expectNoCspViolations());
afterAll(() => expectNoCspViolations());
