export * from './port';
export { PositionWaiters } from './position-waiters';
export { SqliteEventStore, type SqliteEventStoreOptions, type CommitStats } from './sqlite-event-store';
export { DurableMark } from './durable-mark';
export {
  EventStoreDbEventStore,
  MissingPositionError,
  type EsdbClient,
  type EventStoreDbEventStoreOptions,
  encodePosition as encodeEsdbPosition,
  decodePosition as decodeEsdbPosition,
} from './eventstoredb-event-store';
export {
  PostgresEventStore,
  isPostgresUnavailable,
  LogFormatError,
  POSITION_RANK_BITS,
  type PostgresEventStoreOptions,
} from './postgres-event-store';
export * from './data-file-error';
export {
  verifyEventLog,
  verifyBeforeClose,
  recordVerifiedLog,
  closeVerifiedLog,
  RunningLogRecorder,
  sourceTreeFingerprint,
  eventProblem,
  type LogVerification,
  type VerifiedLogRecord,
} from './verify-log';
export { eventIdAt } from './event-id-at';
