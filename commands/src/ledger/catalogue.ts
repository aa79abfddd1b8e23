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
 * folded and cached, reading only newer events each time.
 */
export class CatalogueRepository {
  private state: CatalogueState = catalogueDecider.initialState();
  private revision = -1;

  constructor(private readonly events: EventStore) {}

  async current(): Promise<CatalogueState> {
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
