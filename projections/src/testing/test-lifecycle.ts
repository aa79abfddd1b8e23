import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import type { CommandContext } from '@evo/infra';

/**
 * A list to push what a test opens (event stores, read stores) onto: after each test, all of it is
 * closed, the last opened first.
 */
export function closedAfterEach<T extends { close(): Promise<void> }>(): T[] {
  const open: T[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  return open;
}

/** A command of `userId` (none: the system's) at `now`, with a correlation of its own. */
export const commandAt = (userId: string | undefined, now: Date): CommandContext => ({
  userId,
  correlationId: randomUUID(),
  now,
});

/** Command contexts one minute apart from `start` (epoch ms), in the order they are asked for. */
export function minuteApartContexts(start: number): (userId?: string) => CommandContext {
  let clock = start;
  return (userId?: string) => commandAt(userId, new Date((clock += 60_000)));
}
