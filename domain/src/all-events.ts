import type { DomainEvent } from './shared/decider';
import type { RecordedEvent } from './shared/envelope';
import type { ReservationEvent, UserEvent } from './identity/events';
import type { VideoEvent } from './videos/events';
import type { IdAssigned } from './shared/sequence';
import type { SocialEvent } from './social/events';
import type { MessagingEvent } from './messaging/events';
import type { WalletEvent } from './ledger/events';
import type { PurchaseRequestEvent } from './ledger/purchase-request-decider';
import type { CatalogueEvent } from './gifts/events';
import type { ModerationEvent } from './moderation/events';

/** Every event of the product, as a discriminated union on `type`. */
export type AppEvent =
  | UserEvent
  | ReservationEvent
  | VideoEvent
  | IdAssigned
  | SocialEvent
  | MessagingEvent
  | WalletEvent
  | PurchaseRequestEvent
  | CatalogueEvent
  | ModerationEvent;

/** A stored event narrowed to one of the product's event types. */
export type RecordedOf<E> = E extends DomainEvent ? RecordedEvent<E['type'], E['data']> : never;
export type RecordedAppEvent = RecordedOf<AppEvent>;
