import type { LogPosition } from '@evo/domain';
import type { EventStore, ReadStore } from '@evo/infra';
import type { ProjectionProgress } from './runner';
import { readCheckpoint } from './checkpoint';

/**
 * Progress seen from an API process that does not run the projections itself (distributed
 * mode): it polls the checkpoint the projections service writes with its read models.
 */
export class ReadStoreProgress implements ProjectionProgress {
  constructor(
    private readonly read: ReadStore,
    private readonly events: EventStore,
    private readonly pollMs = 20,
  ) {}

  async waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const cp = await readCheckpoint(this.read);
      if (cp !== undefined && cp >= position) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }

  async isCaughtUp(): Promise<boolean> {
    const [cp, last] = await Promise.all([readCheckpoint(this.read), this.events.lastPosition()]);
    return last === undefined || (cp !== undefined && cp >= last);
  }
}
