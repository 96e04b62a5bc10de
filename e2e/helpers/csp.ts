import type { BrowserContext } from 'playwright-core';

/**
 * Content-Security-Policy violations seen by any watched browser context: the page's own
 * `securitypolicyviolation` events, and Chromium's console complaints about the Permissions-Policy. newPage() watches every context it makes; e2e/helpers/csp-setup.ts fails the
 * test during which one happened.
 */
const violations: string[] = [];

interface Reported {
  directive: string;
  blocked: string;
  source: string;
  line: number;
  sample: string;
  page: string;
}

/** Records every violation in this context's pages (call before the first page opens). */
export async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, v: Reported) => {
    violations.push(
      `${v.directive} blocked ${v.blocked || '(inline)'} at ${v.source}:${v.line} on ${v.page}${v.sample ? ` — ${v.sample}` : ''}`,
    );
  });
  // As source text: this helper is also type-checked without the DOM library (bench/ uses newPage).
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation?.({ directive: event.violatedDirective, blocked: event.blockedURI, source: event.sourceFile, line: event.lineNumber, sample: event.sample, page: location.href });
    });`,
  });
  // A policy violation is reported by the event above (once); the console adds what no event reports: a bad Permissions-Policy.
  context.on('console', (message) => {
    const text = message.text();
    if (/Permissions-Policy/i.test(text) && (message.type() === 'error' || message.type() === 'warning'))
      violations.push(`console ${message.type()}: ${text}`);
  });
}

/** The violations recorded since the last call, emptying the list. */
export function takeCspViolations(): string[] {
  return violations.splice(0, violations.length);
}

/** Throws with every violation recorded since the last check. */
export function expectNoCspViolations(): void {
  const seen = takeCspViolations();
  if (seen.length > 0)
    throw new Error(`Content-Security-Policy violations:\n${seen.map((v) => `  - ${v}`).join('\n')}`);
}
