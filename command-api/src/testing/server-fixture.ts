import { afterAll, beforeAll } from 'vitest';
import { slice } from '../messaging/test-helpers';
import { loginAdmin } from '../admin/test-helpers';
import {
  registerAndLogin,
  startTestServer,
  type Client,
  type Member,
  type Registration,
  type TestServer,
} from './test-server';

/** A test file's server, its slice helpers, the administrator's client and its first members. */
export type ServerFixture = ReturnType<typeof slice> & {
  server: TestServer;
  /** the demo administrator's client (with `admin: true` only) */
  admin: Client;
  /** registered and logged in one after the other, in the order asked */
  members: Member[];
  /** one more member, registered and logged in now */
  member(overrides?: Partial<Registration>): Promise<Member>;
};

/**
 * The real server of a test file (or describe block): started by a beforeAll declared where this is
 * called, so it runs before the file's own beforeAll, and stopped after the tests. The object and
 * its `members` are returned now and filled in then, so a file can name its members once:
 * `const t = serverFixture({ members: 2 }); const [alice, bob] = t.members;`.
 */
export function serverFixture(
  options: { admin?: boolean; members?: number | Array<Partial<Registration>>; env?: Record<string, string> } = {},
): ServerFixture {
  const { members = 0 } = options;
  const registrations = typeof members === 'number' ? Array.from({ length: members }, () => ({})) : members;
  const fixture = { members: registrations.map(() => ({}) as Member) } as ServerFixture;
  beforeAll(async () => {
    const server = await startTestServer(options.env);
    Object.assign(fixture, slice(server), {
      server,
      member: (overrides: Partial<Registration> = {}) => registerAndLogin(server.url, overrides),
    });
    if (options.admin) fixture.admin = await loginAdmin(server);
    for (const [i, overrides] of registrations.entries())
      Object.assign(fixture.members[i], await registerAndLogin(server.url, overrides));
  });
  afterAll(() => fixture.server?.stop());
  return fixture;
}
