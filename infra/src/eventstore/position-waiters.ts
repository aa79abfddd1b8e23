import type { LogPosition } from '@evo/domain';

/**
 * Callers waiting until a follower of the log (the projection runner, the gift credits) has done
 * its work up to a position: each resolves true once `reached` says so at a `notify`, false after
 * its timeout or at `cancelAll`.
 */
export class PositionWaiters {
  private waiters: Array<{ position: LogPosition; resolve: (ok: boolean) => void }> = [];

  constructor(private readonly reached: (position: LogPosition) => boolean) {}

  wait(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (this.reached(position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { position, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  /** Resolves every waiter whose position is now reached. */
  notify(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!this.reached(w.position)) return true;
      w.resolve(true);
      return false;
    });
  }

  cancelAll(): void {
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }
}
