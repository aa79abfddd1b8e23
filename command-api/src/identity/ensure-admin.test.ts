import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore, systemContext } from '@evo/infra';
import { ADMIN_ROLE, userDecider, userStream } from '@evo/domain';
import { loadState } from '@evo/infra';
import { ensureAdmin } from './commands';
import { findMemberBy } from './members';

const admin = { email: 'chef@evo.local', password: 'un mot de passe assez long' };
const passwords = { hash: async (p: string) => `hash:${p}`, verify: async (h: string, p: string) => h === `hash:${p}` };

describe('ensureAdmin', () => {
  it('leaves one administrator when several processes start at once on one log (API replicas)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-ensure-admin-'));
    // one store per "process", on the same file: the claims settle which registration wins
    const stores = [0, 1, 2].map(() => new SqliteEventStore(path.join(dir, 'events.sqlite')));
    try {
      await Promise.all(stores.map((events) => ensureAdmin(events, admin, passwords, systemContext())));
      let registrations = 0;
      for await (const batch of stores[0].readAll())
        for (const e of batch)
          if (e.type === 'UserRegistered' && (e.data as { email: string }).email === admin.email) registrations++;
      expect(registrations).toBe(1);
      const member = await findMemberBy(stores[0], 'email', admin.email);
      expect(member).not.toBeNull();
      const { state } = await loadState(stores[0], userStream(member!.userId), userDecider);
      expect(state).toMatchObject({ role: ADMIN_ROLE });
    } finally {
      for (const s of stores) await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
