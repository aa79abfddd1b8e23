// The public surface of @evo/projections: what the other workspaces import (the rest is the
// package's own; its tests and `testing/` helpers import the modules themselves).
export { ADMIN_PAGE, type AdminQueries, adminQueries } from './admin/queries';
export { parisDay } from './analytics/days';
export { analyticsQueries } from './analytics/queries';
export { COMMENT_COUNTS } from './comments/comments-projector';
export { commentsQueries } from './comments/queries';
export { DATA_EXPORTS, type DataExportDoc, requestedDataExport } from './data-export/data-exports-projector';
export { dataExportQueries, toDataExportView } from './data-export/queries';
export { CATALOGUE_ROOM, giftsInTransit } from './gifts/gifts-projector';
export { giftsQueries } from './gifts/queries';
export { PROFILE_PAGE, deletionsNotErased, identityQueries } from './identity/queries';
export { ADMINS_ROOM, USERS, type UserDoc } from './identity/users-projector';
export { ledgerQueries } from './coins/queries';
export { messagingQueries } from './messaging/queries';
export { decisionQueries } from './moderation/decision-queries';
export { type ModerationQueries, latestSanctions, moderationQueries } from './moderation/queries';
export { REPORTS, type ReportDoc } from './moderation/reports-projector';
export { notificationsQueries } from './notifications/queries';
export { allProjectors } from './registry';
export { readCheckpoint } from './runtime/checkpoint';
export { MongoReadModelGenerations } from './runtime/mongo-generations';
export { ProjectionService, type ReadSide, type RebuildState } from './runtime/projection-service';
export { ProjectionThread, projectionThreadSide } from './runtime/projection-thread';
export { type Projector } from './runtime/projector';
export { openReadModelGenerations, openReadStore } from './runtime/read-model-files';
export { ReadStoreProgress } from './runtime/read-store-progress';
export { rebuildReadModels } from './runtime/rebuild';
export {
  CATCHING_UP,
  type ProjectionHealth,
  type ProjectionProgress,
  ProjectionRunner,
  readiness,
  routesOf,
} from './runtime/runner';
export { searchQueries } from './search/queries';
export { FOLLOWING, FOLLOWS, FOLLOW_COUNTS } from './social/follows-projector';
export { PAGE, type Page, socialQueries } from './social/queries';
export {
  FANOUT_MAX_FOLLOWERS,
  TIMELINE_CREATORS,
  TIMELINE_ENTRIES,
  TIMELINE_FOLLOWS,
  TIMELINE_VIDEOS,
  type TimelineEntry,
  timelineEntryId,
} from './social/timeline-projector';
export { CREATOR_COUNTERS, VIDEO_COUNTERS } from './social/video-counters-projector';
export { statsAsOf } from './stats/as-of';
export { STATS_KINDS, type StatsKind, statsMomentsExact, statsQueries, statsQueriesAsOf } from './stats/queries';
export { mediaQueries, videosAwaitingProcessing } from './videos/queries';
export { PROCESSING, VIDEOS, VISIBILITY_HIDDEN, type VideoDoc } from './videos/videos-projector';
