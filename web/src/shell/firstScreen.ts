import { useEffect } from 'react';
import { callsInFlight, whenNoCallInFlight } from '../api/http';

/**
 * Work the first screen does not need (the live-update connection, prefetched code) waits until
 * that screen is shown: its code loaded and its API calls answered. On a slow phone link it would
 * otherwise share the bandwidth with what the member is waiting to see.
 */
let markShown: () => void = () => undefined;
const shown = new Promise<void>((resolve) => (markShown = resolve));

/** a screen's calls often come in two waves (the page, then its parts): quiet this long counts as done */
const QUIET_MS = 150;
/** a screen that keeps calling (polling) does not hold the rest back longer than this */
const LONGEST_WAIT_MS = 8000;

/** Resolves once the first screen is shown (then at once). */
export function whenFirstScreenShown(): Promise<void> {
  return shown;
}

async function quietNetwork(): Promise<void> {
  for (;;) {
    await whenNoCallInFlight();
    await new Promise((r) => setTimeout(r, QUIET_MS));
    if (callsInFlight() === 0) return;
  }
}

/**
 * Rendered after a route's screen, inside its Suspense boundary: its effect runs once the screen's
 * code is in and it rendered (and started its calls).
 */
export function FirstScreenShown(): null {
  useEffect(() => {
    void Promise.race([quietNetwork(), new Promise((r) => setTimeout(r, LONGEST_WAIT_MS))]).then(markShown);
  }, []);
  return null;
}
