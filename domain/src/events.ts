import type { ZodTypeAny } from 'zod';
import { identityEventSchemas } from './identity/events';
import { videoEventSchemas } from './videos/events';
import { IdAssignedSchema } from './shared/sequence';
import { socialEventSchemas } from './social/events';
import { messagingEventSchemas } from './messaging/events';
import { ledgerEventSchemas } from './ledger/events';
import { purchaseRequestEventSchemas } from './ledger/purchase-request-decider';
import { giftEventSchemas } from './gifts/events';
import { moderationEventSchemas } from './moderation/events';

/** Every event type of the product with its schema: appends are validated against it. */
export const eventSchemas: Record<string, ZodTypeAny> = {
  ...identityEventSchemas,
  ...videoEventSchemas,
  ...socialEventSchemas,
  ...messagingEventSchemas,
  ...ledgerEventSchemas,
  ...purchaseRequestEventSchemas,
  ...giftEventSchemas,
  ...moderationEventSchemas,
  IdAssigned: IdAssignedSchema,
};
