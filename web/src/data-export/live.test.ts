import { describe, expect, it } from 'vitest';
import { dataExportRoutes, type DataExportStatus, type DataExportsAnswer } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { dataExportPushes } from './live';
import { POLL_MS, exportsPollMs } from './useExports';

const list = (...statuses: DataExportStatus[]): DataExportsAnswer => ({
  exports: statuses.map((status, i) => ({
    id: `x${i}`,
    status,
    by_admin: false,
    requested_at: '2026-01-01T00:00:00.000Z',
    progress: status === 'en_preparation' ? 40 : 100,
    ready_at: null,
    expires_at: null,
    size_bytes: null,
    error: null,
    download_url: null,
  })),
  ttl_days: 7,
  can_request: !statuses.includes('en_preparation'),
});

describe('data exports in the cache', () => {
  it("'data-export:changed' asks the member's own archives and the back-office's list of that member again", () => {
    const client = createQueryClient();
    const mine = routeKey(dataExportRoutes.mine, {});
    const member = (id: string) => routeKey(dataExportRoutes.member, { id });
    client.setQueryData(mine, list('prete'));
    client.setQueryData(member('m1'), list('en_preparation'));
    client.setQueryData(member('m2'), list('prete'));
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    dataExportPushes(client)['data-export:changed']?.({ export_id: 'x0', member_id: 'm1', position: '3' });
    expect(stale(mine)).toBe(true);
    expect(stale(member('m1'))).toBe(true);
    expect(stale(member('m2'))).toBe(false);
  });

  it('a list is polled only while one of its archives is being built', () => {
    expect(exportsPollMs(list('prete', 'en_preparation'))).toBe(POLL_MS);
    expect(exportsPollMs(list('prete', 'echouee', 'expiree'))).toBe(false);
    expect(exportsPollMs(undefined)).toBe(false);
  });
});
