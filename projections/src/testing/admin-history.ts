import { randomUUID } from 'node:crypto';
import {
  ADMIN_OPERATIONS_STREAM,
  COIN_PACKS,
  DEFAULT_GIFT_CATALOGUE,
  GIFT_CATALOGUE_STREAM,
  LEDGER_SEQUENCE,
  REPORT_SEQUENCE,
  SANCTION_MESSAGES,
  catalogueDecider,
  isReportClosed,
  operationsDecider,
  reportClaimDecider,
  reportClaimStream,
  reportDecider,
  reportStream,
  restrictionDecider,
  restrictionsStream,
  userDecider,
  userStream,
  videoAppealDecider,
  videoDecider,
  videoStream,
  walletDecider,
  walletStream,
  type GiftSent,
  type VideoVisibility,
  type WalletCommand,
} from '@evo/domain';
import { commandAt } from './member-commands';
import type { MembersWritten } from './scripted-history';
import { handleCommand, loadState } from '@evo/infra';

/**
 * Administrators' and coin facts, through the real deciders, after the social and messaging history
 * (`firstVideos[i]` is member i's first video, reported by member i−1): report decisions (a sanction,
 * a closing, a reopening, a decision saved twice), a new report once the previous one is closed,
 * visibility changes (hidden, public again, a deleted video restored), catalogue edits, coin
 * movements with a gift sent, credited and claimed, role grants and revocations by an administrator,
 * an appeal kept, restrictions lifted and reversed on appeal, and a rebuild request. userIds[0] is
 * the administrator.
 */
export async function writeAdminHistory({ events, ids, userIds, firstVideos }: MembersWritten): Promise<void> {
  const n = userIds.length;
  if (n < 3) return;
  const admin = userIds[0];
  let minute = 0;
  /** `null`: a system action (no actor) */
  const ctx = (userId: string | null = admin) =>
    commandAt(userId ?? undefined, new Date(Date.UTC(2026, 5, 1, 8) + minute++ * 60_000));

  // --- reports: the report member i filed on member i+1's first video
  const reportOf = async (i: number) => {
    const videoId = firstVideos[(i + 1) % n];
    const claim = (await loadState(events, reportClaimStream(videoId, userIds[i]), reportClaimDecider)).state;
    const reportId = claim.reports.at(-1)!.reportId;
    const owner = (await loadState(events, videoStream(videoId), videoDecider)).state;
    return { reportId, videoId, reporterId: userIds[i], authorId: owner.status === 'none' ? '' : owner.ownerId };
  };
  const decide = async (i: number, status: string, adminResponse: string | null | undefined) => {
    const report = await reportOf(i);
    await handleCommand(
      events,
      reportStream(report.reportId),
      reportDecider,
      { type: 'ChangeReportStatus', report, status, adminResponse, requesterIsAdmin: true },
      ctx(),
    );
  };
  const [restricted, erased] = SANCTION_MESSAGES;
  await decide(0, 'en_cours', null);
  await decide(0, 'ferme', restricted);
  await decide(1, 'ferme', null);
  if (n >= 4) {
    await decide(2, 'en_cours', erased);
    await decide(2, 'en_cours', erased); // no-op
    await decide(2, 'en_attente', null);
  }
  // member 1 reports member 2's video again: the previous report is closed
  {
    const videoId = firstVideos[2];
    const stream = reportClaimStream(videoId, userIds[1]);
    const claim = (await loadState(events, stream, reportClaimDecider)).state;
    const last = claim.reports.at(-1)!.reportId;
    const closed = isReportClosed((await loadState(events, reportStream(last), reportDecider)).state) ? [last] : [];
    const reportId = await ids.next(REPORT_SEQUENCE, ctx(userIds[1]));
    const video = (await loadState(events, videoStream(videoId), videoDecider)).state;
    await handleCommand(
      events,
      stream,
      reportClaimDecider,
      {
        type: 'ReportVideo',
        reportId,
        videoId,
        reporterId: userIds[1],
        reason: 'Encore choquant',
        video,
        closedReportIds: closed,
      },
      ctx(userIds[1]),
    );
  }

  // --- visibility (member 2's videos are left alone: other tests read their profile)
  const visibility = (videoId: number, v: VideoVisibility) => {
    const cx = ctx();
    return handleCommand(
      events,
      videoStream(videoId),
      videoDecider,
      { type: 'SetVideoVisibility', videoId, visibility: v, requesterId: admin, requesterIsAdmin: true, now: cx.now },
      cx,
    );
  };
  await visibility(firstVideos[0], 'masquée');
  await visibility(firstVideos[0], 'publique');
  // (a video its owner deleted has no files left: an administrator cannot restore it)
  if (n >= 4) {
    await visibility(firstVideos[3], 'masquée');
    await visibility(firstVideos[3], 'masquée'); // no-op
  }
  if (n >= 6) await visibility(firstVideos[5], 'supprimée');

  // --- appeals and restrictions (issue 32); none left holding (other tests act as these members)
  if (n >= 4) {
    const appeal = ctx(userIds[3]);
    await handleCommand(
      events,
      videoStream(firstVideos[3]),
      videoAppealDecider,
      {
        type: 'AppealVideoDecision',
        decisionNo: 1,
        requesterId: userIds[3],
        text: 'Rien de choquant.',
        now: appeal.now,
      },
      appeal,
    );
    const answer = ctx();
    await handleCommand(
      events,
      videoStream(firstVideos[3]),
      videoAppealDecider,
      {
        type: 'AnswerVideoAppeal',
        decisionNo: 1,
        requesterId: admin,
        requesterIsAdmin: true,
        outcome: 'maintenue',
        answer: 'Contenu interdit.',
        now: answer.now,
      },
      answer,
    );
  }
  const restrictions = async (userId: string, command: Parameters<typeof restrictionDecider.decide>[0], who = admin) =>
    handleCommand(events, restrictionsStream(userId), restrictionDecider, command, ctx(who));
  const restrict = (userId: string, scopes: string[], durationHours: number | null, now: Date) =>
    restrictions(userId, {
      type: 'RestrictMember',
      userId,
      requesterId: admin,
      requesterIsAdmin: true,
      scopes,
      durationHours,
      reason: 'Propos insultants',
      now,
    });
  const at = () => new Date(Date.UTC(2026, 5, 1, 8) + minute * 60_000);
  await restrict(userIds[1], ['comment', 'message'], 24, at());
  await restrictions(userIds[1], { type: 'LiftRestriction', restrictionNo: 1, requesterIsAdmin: true, now: at() });
  await restrict(userIds[2], ['upload'], null, at());
  await restrictions(
    userIds[2],
    { type: 'AppealRestriction', restrictionNo: 1, requesterId: userIds[2], text: 'Erreur de personne.', now: at() },
    userIds[2],
  );
  await restrictions(userIds[2], {
    type: 'AnswerRestrictionAppeal',
    restrictionNo: 1,
    requesterIsAdmin: true,
    outcome: 'annulée',
    answer: 'Vérifié, désolé.',
    now: at(),
  });

  // --- catalogue (seeded if this log has none yet)
  const catalogue = async (command: Parameters<typeof catalogueDecider.decide>[0], userId: string | null = admin) =>
    handleCommand(events, GIFT_CATALOGUE_STREAM, catalogueDecider, command, ctx(userId));
  await catalogue({ type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] }, null);
  const added = await catalogue({ type: 'AddGift', gift: { name: 'Étoile', emoji: '⭐', imageUrl: '', coinCost: 0 } });
  const starId = added.events[0].data.giftId;
  await catalogue({
    type: 'UpdateGift',
    giftId: starId,
    gift: { name: 'Étoile filante', emoji: '🌠', imageUrl: '/uploads/gifts/etoile.png', coinCost: 3 },
  });
  const temp = await catalogue({ type: 'AddGift', gift: { name: 'Éphémère', emoji: '🫧', imageUrl: '', coinCost: 2 } });
  await catalogue({ type: 'RemoveGift', giftId: temp.events[0].data.giftId });

  // --- coins: purchases, additions, a gift sent, credited (10 % fee) and claimed, a withdrawal of earned coins
  const wallet = async (userId: string, command: WalletCommand) =>
    handleCommand(events, walletStream(userId), walletDecider, command, ctx(userId));
  const txId = () => ids.next(LEDGER_SEQUENCE, ctx());
  const [buyer, receiver] = [userIds[1], userIds[2]];
  await wallet(buyer, {
    type: 'PurchaseCoins',
    userId: buyer,
    txId: await txId(),
    pack: COIN_PACKS[0],
    provider: 'sandbox',
    paymentRef: randomUUID(),
  });
  await wallet(buyer, { type: 'AddCoins', userId: buyer, txId: await txId(), amount: 40 });
  const star = { id: starId, name: 'Étoile filante', emoji: '🌠', coinCost: 3 };
  const sent = await wallet(buyer, {
    type: 'SendGift',
    userId: buyer,
    giftId: await txId(),
    receiverId: receiver,
    gift: { ...star, coinCost: 100 },
    feePercent: 10,
  });
  const data = sent.events[0].data as GiftSent['data'];
  await handleCommand(
    events,
    walletStream(receiver),
    walletDecider,
    { type: 'ReceiveGift', userId: receiver, sent: data, sentAt: new Date(Date.UTC(2026, 5, 1, 7)).toISOString() },
    ctx(null),
  );
  await wallet(receiver, { type: 'ClaimGift', userId: receiver, txId: await txId(), giftId: data.giftId });
  await wallet(buyer, {
    type: 'SendGift',
    userId: buyer,
    giftId: await txId(),
    receiverId: receiver,
    gift: star,
    feePercent: 10,
  }); // not credited yet
  // only coins earned from gifts are withdrawable: the receiver withdraws some of the claimed gift
  await wallet(receiver, { type: 'WithdrawCoins', userId: receiver, txId: await txId(), amount: 7 });

  // --- roles by an administrator
  await handleCommand(events, userStream(userIds[2]), userDecider, { type: 'GrantAdmin', userId: userIds[2] }, ctx());
  await handleCommand(
    events,
    userStream(userIds[2]),
    userDecider,
    { type: 'RevokeAdmin', userId: userIds[2], otherAdmins: 1 },
    ctx(),
  );

  // --- a rebuild
  await handleCommand(
    events,
    ADMIN_OPERATIONS_STREAM,
    operationsDecider,
    { type: 'RequestRebuild', requestedBy: admin, requesterIsAdmin: true, embedded: true, running: false },
    ctx(),
  );
}
