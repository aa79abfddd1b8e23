import type { LogPosition } from '@evo/domain';
import type { EventStore, ReadStore } from '@evo/infra';
import { PROJECTION_STATUS, type ProjectionHealth, type ProjectionProgress } from './runner';
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

  /** The projectors the projections service stopped, as it keeps them beside the read models. */
  async health(): Promise<ProjectionHealth> {
    const docs = await this.read
      .collection<{ _id: string; position: string; type: string; error: string; at: string }>(PROJECTION_STATUS)
      .find({});
    return {
      caughtUp: await this.isCaughtUp(),
      stopped: docs.map((d) => ({ name: d._id, position: BigInt(d.position), type: d.type, error: d.error, at: d.at })),
    };
  }
}
