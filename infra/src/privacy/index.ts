export { PersonalDataEventStore, MissingMemberKeyError, storedStreamId } from './personal-data-event-store';
export { ENCRYPTED_PREFIX, isEncrypted } from './field-cipher';
export { encryptLog, checkEncrypted, type EncryptLogProgress, type EncryptLogReport } from './encrypt-log';
export { SqliteRawLog, PostgresRawLog, type RawLog, type RawEventRow } from './raw-logs';
