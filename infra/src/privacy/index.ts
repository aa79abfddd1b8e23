export { PersonalDataEventStore, MissingMemberKeyError } from './personal-data-event-store';
export { ENCRYPTED_PREFIX, isEncrypted } from './field-cipher';
