import { LEDGER_SEQUENCE, sequenceStream, type IdAssigned } from '@evo/domain';
import { WrongExpectedRevisionError, toNewEvents, type CommandContext, type EventStore } from '@evo/infra';

/** ids reserved per append to the sequence stream */
export const LEDGER_ID_BLOCK = 64;

/**
 * Numeric ids of coin transactions (and of sent gifts), from `sequence-coin-transaction`.
 * Like `nextId`, an id is only ever given once across processes (the sequence is appended with its
 * expected revision), but ids are reserved by blocks: one `IdAssigned { value: last + 64 }` gives
 * this process the 64 ids after `last`. A gift send then costs no extra append in the common case,
 * instead of serialising every request on the sequence stream. A crash leaves a gap, never a
 * duplicate; ids are carried in the events, so a replay gives the same ids. `nextId(store,
 * 'coin-transaction')` stays compatible (it continues after the highest reserved value).
 */
export class LedgerIds {
  private static readonly byStore = new WeakMap<EventStore, LedgerIds>();
  static for(events: EventStore): LedgerIds {
    let ids = LedgerIds.byStore.get(events);
    if (!ids) LedgerIds.byStore.set(events, (ids = new LedgerIds(events)));
    return ids;
  }

  private next = 1;
  private end = 1;
  private last = 0;
  private revision = -1;
  private reserving: Promise<void> | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly block = LEDGER_ID_BLOCK,
  ) {}

  async take(ctx: CommandContext): Promise<number> {
    while (this.next >= this.end) {
      this.reserving ??= this.reserve(ctx).finally(() => (this.reserving = undefined));
      await this.reserving;
    }
    return this.next++;
  }

  private async reserve(ctx: CommandContext): Promise<void> {
    const streamId = sequenceStream(LEDGER_SEQUENCE);
    for (let attempt = 1; ; attempt++) {
      for (const e of await this.events.readStream(streamId, this.revision + 1)) {
        this.last = Math.max(this.last, (e as unknown as IdAssigned).data.value);
        this.revision = e.revision;
      }
      const value = this.last + this.block;
      try {
        const r = await this.events.append(
          streamId,
          toNewEvents([{ type: 'IdAssigned', data: { value } }], streamId, { ...ctx, idempotencyKey: undefined }),
          this.revision < 0 ? 'no_stream' : this.revision,
        );
        this.next = this.last + 1;
        this.end = value + 1;
        this.last = value;
        this.revision = r.nextRevision;
        return;
      } catch (e) {
        if (!(e instanceof WrongExpectedRevisionError) || attempt >= 100) throw e;
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, attempt * 2)));
      }
    }
  }
}
