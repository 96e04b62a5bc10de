/**
 * When test certificates and provisioning profiles are valid. By default they are current, as a typical
 * upload's are: issued a month before `now` and good for a year after it. A test that wants an expired (or
 * not yet valid) one passes its dates explicitly; one whose server runs on a fixed test clock passes that
 * clock's time as `now`, so its fixtures do not drift with the wall clock.
 */
export const DAY_MS = 24 * 60 * 60 * 1000;

export interface Validity {
  from: Date;
  to: Date;
}

export function currentValidity(now: number = Date.now()): Validity {
  // Whole seconds: certificates and plists keep no more, so a test can compare what it built with what is read.
  const at = Math.floor(now / 1000) * 1000;
  return { from: new Date(at - 30 * DAY_MS), to: new Date(at + 365 * DAY_MS) };
}
