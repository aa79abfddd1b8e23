import { DEFAULT_REPORT_REASON } from '@evo/domain';
import type { ReportView } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { REPORTS, type ReportDoc } from './reports-projector';
import { VIDEOS, type VideoDoc } from '../videos/videos-projector';

export const UNKNOWN_HANDLE = 'inconnu';

/**
 * The sanction message the author of each video was last sent (the product business constants: the admin's
 * reply on a report of that video), by video id; videos without one are left out.
 */
export async function latestSanctions(read: ReadStore, videoIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (videoIds.length === 0) return out;
  const docs = await read
    .collection<ReportDoc>(REPORTS)
    .find(
      { video_id: { $in: [...videoIds] } },
      { projection: { video_id: 1, admin_response: 1, created_at: 1, updated_at: 1 } },
    );
  const when = (r: ReportDoc) => r.updated_at ?? r.created_at;
  for (const r of docs
    .filter((d) => d.admin_response)
    .sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : a._id - b._id)))
    out.set(r.video_id, r.admin_response as string);
  return out;
}
export const REPORTS_LIST = { defaultLimit: 500, maxLimit: 2000 } as const;

export function moderationQueries(read: ReadStore) {
  const reports = read.collection<ReportDoc>(REPORTS);
  const videos = read.collection<VideoDoc>(VIDEOS);

  async function views(docs: ReportDoc[]): Promise<ReportView[]> {
    const ids = [...new Set(docs.map((r) => r.video_id))];
    const found = ids.length ? await videos.find({ _id: { $in: ids } }, { projection: { title: 1, status: 1 } }) : [];
    const byId = new Map(found.map((v) => [v._id, v]));
    return docs.map((r) => {
      const video = byId.get(r.video_id);
      return {
        id: r.id,
        video_id: r.video_id,
        video_title: r.video_title || video?.title || '',
        video_status: video?.status ?? null,
        status: r.status,
        created_at: r.created_at,
        signalant: r.signalant || UNKNOWN_HANDLE,
        auteur: r.auteur || UNKNOWN_HANDLE,
        reason: r.reason || DEFAULT_REPORT_REASON,
        admin_response: r.admin_response ?? null,
      };
    });
  }

  return {
    /** newest first; `status` keeps one status only */
    async reports(options: { status?: string; limit?: number } = {}): Promise<ReportView[]> {
      const limit = Math.min(Math.max(1, options.limit ?? REPORTS_LIST.defaultLimit), REPORTS_LIST.maxLimit);
      const filter = options.status ? { status: options.status } : {};
      return views(await reports.find(filter, { sort: { created_at: -1, _id: -1 }, limit }));
    },
    async report(reportId: number): Promise<ReportView | null> {
      const doc = await reports.findOne({ _id: reportId });
      return doc ? (await views([doc]))[0] : null;
    },
    /** where a report was filed: the command side reads its streams from there */
    async locate(reportId: number): Promise<{ videoId: number; reporterId: string } | null> {
      const doc = await reports.findOne({ _id: reportId }, { projection: { video_id: 1, reporter_id: 1 } });
      return doc ? { videoId: doc.video_id, reporterId: doc.reporter_id } : null;
    },
  };
}

export type ModerationQueries = ReturnType<typeof moderationQueries>;
