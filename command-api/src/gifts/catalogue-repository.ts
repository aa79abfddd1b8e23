import {
  catalogueDecider,
  DEFAULT_GIFT_CATALOGUE,
  GIFT_CATALOGUE_STREAM,
  type CatalogueCommand,
  type CatalogueEvent,
  type CatalogueGift,
  type CatalogueState,
} from '@evo/domain';
import { handleCommand, type CommandContext, type EventStore } from '@evo/infra';

/**
 * The gift catalogue as commands read it (never from a read model): the `gift-catalogue` stream,
 * folded and cached, reading only newer events each time. Callers arriving together share one
 * read (every gift send asks for the catalogue: one round trip per send otherwise), and a caller
 * only joins a read that starts after it arrived, so it still sees every change committed before
 * its call (an administrator's new price, then their own gift).
 */
export class CatalogueRepository {
  private state: CatalogueState = catalogueDecider.initialState();
  private revision = -1;
  /** the read on its way, and the one the callers arrived during it wait for */
  private running: Promise<CatalogueState> | undefined;
  private next: Promise<CatalogueState> | undefined;

  constructor(private readonly events: EventStore) {}

  current(): Promise<CatalogueState> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<CatalogueState> {
    const read = this.read().finally(() => {
      if (this.running === read) this.running = undefined;
    });
    this.running = read;
    return read;
  }

  private async read(): Promise<CatalogueState> {
    for (const e of await this.events.readStream(GIFT_CATALOGUE_STREAM, this.revision + 1)) {
      if (e.revision <= this.revision) continue;
      this.state = catalogueDecider.evolve(this.state, e as unknown as CatalogueEvent);
      this.revision = e.revision;
    }
    return this.state;
  }

  async gift(id: number): Promise<CatalogueGift | undefined> {
    return (await this.current()).gifts[id];
  }

  execute(command: CatalogueCommand, ctx: CommandContext) {
    return handleCommand(this.events, GIFT_CATALOGUE_STREAM, catalogueDecider, command, ctx);
  }
}

/** The default catalogue exists (added once, on an empty stream): safe to run at every start. */
export async function ensureGiftCatalogue(
  events: EventStore,
  ctx: CommandContext,
  catalogue: CatalogueRepository = new CatalogueRepository(events),
): Promise<void> {
  await catalogue.execute({ type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] }, ctx);
}
