import { DATA_EXPORT_TTL_DAYS } from '@evo/domain';
import type { DataExportView, DataExportsAnswer } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { DATA_EXPORTS, type DataExportDoc } from './data-exports-projector';

/** the last archives listed */
const LIST_LIMIT = 20;

/** An export as its reader sees it; `downloadUrl` where they download it (null: not theirs to download). */
export function toDataExportView(d: DataExportDoc, now: Date, downloadUrl: string | null): DataExportView {
  const expired = d.status === 'prete' && d.expires_at !== null && now.getTime() >= Date.parse(d.expires_at);
  const status = expired ? 'expiree' : d.status;
  return {
    id: d._id,
    status,
    by_admin: d.by_admin,
    requested_at: d.requested_at,
    progress: d.status === 'prete' ? 100 : Math.min(99, Math.floor((100 * d.done) / Math.max(1, d.total))),
    ready_at: d.ready_at,
    expires_at: d.expires_at,
    size_bytes: d.size_bytes,
    error: d.error,
    download_url: status === 'prete' ? downloadUrl : null,
  };
}

export function dataExportQueries(read: ReadStore) {
  const exports = () => read.collection<DataExportDoc>(DATA_EXPORTS);
  return {
    /** a member's exports, newest first; `urlOf` says where the reader downloads one (null: nowhere) */
    async list(memberId: string, now: Date, urlOf: (d: DataExportDoc) => string | null): Promise<DataExportsAnswer> {
      const docs = await exports().find({ member_id: memberId }, { sort: { requested_at: -1 }, limit: LIST_LIMIT });
      return {
        exports: docs.map((d) => toDataExportView(d, now, urlOf(d))),
        ttl_days: DATA_EXPORT_TTL_DAYS,
        can_request: !docs.some((d) => d.status === 'en_preparation'),
      };
    },
    byId: (id: string) => exports().findOne({ _id: id }),
  };
}
