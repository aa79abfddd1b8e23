/**
 * Issue 14's figures, each printed once with its goal in a form `npm run bench` (scripts/bench.ts)
 * picks out of every benchmark's output and prints again, together, at the end of its run.
 */
export const GOAL_MARK = 'goal ▸';

/**
 * One figure: what was measured, the goal, and whether it is met (undefined: a reference figure
 * without a goal of its own, such as a peer's rate).
 */
export function printGoal(figure: string, measured: string, goal: string, met: boolean | undefined): void {
  console.log(`${GOAL_MARK} ${figure} | ${measured} | ${goal} | ${met === undefined ? '—' : met ? 'met' : 'NOT met'}`);
}
