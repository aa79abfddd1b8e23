import type { RecordedEvent } from '@evo/domain';
import type { SubscribeOptions } from './port';

export interface SubscriptionTiming {
  pollIntervalMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

/**
 * What the subscriptions of the stores that poll their log (SQLite, PostgreSQL) share: start,
 * wake and stop, the caught-up signal given once, the sleep an append or a stop cuts short, and
 * the backoff after a failure. Each store's `run` reads and delivers from the last delivered
 * position (kept across failures, so the failed event comes again and nothing is skipped).
 */
export abstract class PollingSubscription {
  protected stopped = false;
  /** an append was announced since the last read */
  protected dirty = false;
  private wakeWaiter: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();
  private caughtUp = false;

  constructor(
    protected readonly handler: (event: RecordedEvent) => Promise<void>,
    protected readonly options: SubscribeOptions,
    protected readonly timing: SubscriptionTiming,
    private readonly onDone: () => void,
  ) {}

  protected abstract run(): Promise<void>;

  start(): void {
    this.loop = this.run().finally(this.onDone);
  }

  /** An append is announced (durable here, or notified by another process): read without waiting for the poll. */
  wake(): void {
    this.dirty = true;
    this.wakeWaiter?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeWaiter?.();
    await this.loop;
  }

  protected markCaughtUp(): void {
    if (this.caughtUp) return;
    this.caughtUp = true;
    this.options.onCaughtUp?.();
  }

  /** After the `failures`-th failure in a row (from 0): reports it and waits, doubling the delay each time. */
  protected async backOff(err: unknown, failures: number): Promise<void> {
    if (this.stopped) return;
    this.options.onError?.(err);
    await this.sleep(Math.min(this.timing.retryMaxMs, this.timing.retryInitialMs * 2 ** failures), false);
  }

  /** Waits for the delay, a stop, or (when `wakeOnAppend`) an append announced. */
  protected sleep(ms: number, wakeOnAppend: boolean): Promise<void> {
    if (this.stopped || (wakeOnAppend && this.dirty)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeWaiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeWaiter = wakeOnAppend ? done : () => this.stopped && done();
    });
  }
}
