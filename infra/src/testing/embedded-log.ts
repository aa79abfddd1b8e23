// The embedded log of a DATA_DIR as EVO's processes read it (personal fields decrypted with that
// DATA_DIR's keys), for tests that look into what a server wrote.
import path from 'node:path';
import { SqliteEventStore, type SqliteEventStoreOptions } from '../eventstore/sqlite-event-store';
import { SqliteKeyStore } from '../keys/sqlite-key-store';
import { PersonalDataEventStore } from '../privacy/personal-data-event-store';

export function openEmbeddedLog(dataDir: string, options: SqliteEventStoreOptions = {}): PersonalDataEventStore {
  return new PersonalDataEventStore(
    new SqliteEventStore(path.join(dataDir, 'events.sqlite'), options),
    new SqliteKeyStore(path.join(dataDir, 'keys.sqlite')),
    { closeKeys: true },
  );
}
