import { describe, it } from 'vitest';

/**
 * A suite that cannot run on this machine (a server it needs is not there): `warning` on the
 * console, and `suite` in the report as skipped, with the `check` it would have made, so that a
 * run shows what it left out.
 */
export function skippedSuite(warning: string, suite: string, check: string): void {
  console.warn(warning);
  describe.skip(suite, () => {
    it(check, () => undefined);
  });
}
