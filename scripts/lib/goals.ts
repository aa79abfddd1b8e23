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

/**
 * A benchmark's report table, printed once on stdout as Markdown: `npm run bench` runs every
 * benchmark with LOG_LEVEL=silent, so the report is the one output that does not go through the
 * logger. `columns`: each header, with `:` at its end to align the column right.
 */
export function printReport(title: string, columns: string[], rows: string[][]): void {
  const header = columns.map((c) => c.replace(/:$/, ''));
  const rule = columns.map((c) => (c.endsWith(':') ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(['', title, '', line(header), line(rule), ...rows.map(line)].join('\n'));
}
