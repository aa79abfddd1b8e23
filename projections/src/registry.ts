import type { Projector } from './runtime/projector';
import { usersProjector } from './identity/users-projector';
import { videosProjector } from './videos/videos-projector';
import { socialProjectors } from './social/index';
import { commentsProjector } from './comments/index';
import { notificationsProjector } from './notifications/index';
import { messagesProjector } from './messaging/index';
import { walletsProjector } from './coins/wallets-projector';
import { giftsInTransitProjector, giftsProjector } from './gifts/gifts-projector';
import { reportsProjector } from './moderation/reports-projector';
import { decisionsProjector } from './moderation/decisions-projector';
import { statsProjector } from './stats/stats-projector';
import { auditProjector } from './admin/audit-projector';
import { analyticsProjector } from './analytics/analytics-projector';
import { searchProjector } from './search/search-projector';
import { dataExportsProjector } from './data-export/data-exports-projector';

/**
 * Every projector. Each writes only its own collections, so their order does not matter
 * (any-order.test.ts runs them in several).
 */
export const allProjectors: readonly Projector[] = [
  usersProjector,
  videosProjector,
  ...socialProjectors,
  reportsProjector,
  commentsProjector,
  notificationsProjector,
  messagesProjector,
  walletsProjector,
  giftsProjector,
  giftsInTransitProjector,
  decisionsProjector,
  statsProjector,
  auditProjector,
  analyticsProjector,
  searchProjector,
  dataExportsProjector,
];
