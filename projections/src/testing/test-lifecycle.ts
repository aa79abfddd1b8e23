import { afterEach } from 'vitest';

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
