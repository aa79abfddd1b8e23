import { DEMO_MEMBER_PASSWORD, type CommandContext, type EventStore, type IdAllocator } from '@evo/infra';
import type { UploadStore } from '../uploads/upload-store';
import { registerUser, uploadVideo } from '../identity/commands';
import { findMemberBy } from '../identity/members';
import { setFollowing, setLike } from '../social/commands';
import { postComment } from '../comments/commands';
import { WalletRequests } from '../coins/wallets';
import { SandboxPaymentProvider } from '../coins/payment-provider';
import { buyPack } from '../coins/buy-pack';
import { sendGift } from '../gifts/send-gift';
import { videoFilePath } from '../videos/video-files';

/** The demo members' password, published in README.md (DEMO_PASSWORD replaces it). */
export const DEMO_PASSWORD = DEMO_MEMBER_PASSWORD;

/** Demo members, each with videos shipped in command-api/assets/demo. */
export const DEMO_MEMBERS = [
  {
    email: 'lea@evo.local',
    pseudo: 'lea',
    bio: 'Danse, musique et bonne humeur 💃',
    videos: [['demo-1.mp4', 'Mes premiers pas sur EVO']],
  },
  {
    email: 'hugo@evo.local',
    pseudo: 'hugo',
    bio: 'Fractales et maths pour tous',
    videos: [
      ['demo-2.mp4', 'Voyage dans une fractale'],
      ['demo-4.mp4', 'Couleurs primaires'],
    ],
  },
  {
    email: 'ines@evo.local',
    pseudo: 'ines',
    bio: 'Rétro et mire de télé 📺',
    videos: [['demo-3.mp4', 'La mire du dimanche']],
  },
] as const;

/**
 * Seed the demo members on a log that does not have them yet (safe at every start: a member
 * already there is left alone).
 */
export async function seedDemoData(
  events: EventStore,
  ids: IdAllocator,
  uploads: UploadStore,
  hash: (p: string) => Promise<string>,
  ctx: () => CommandContext,
  /** the demo members' password: DEMO_PASSWORD when given, else the published one */
  password: string = DEMO_PASSWORD,
): Promise<number> {
  let created = 0;
  let passwordHash: string | undefined;
  const video = async ([file, title]: readonly [string, string]) => {
    const { name, size } = await uploads.importAsset(`demo/${file}`, 'videos');
    return {
      title,
      description: 'Vidéo de démonstration',
      filePath: videoFilePath(name),
      mimeType: 'video/mp4',
      sizeBytes: size,
    };
  };
  const seeded: Record<string, { userId: string; videoIds: number[] }> = {};
  for (const m of DEMO_MEMBERS) {
    if (await findMemberBy(events, 'email', m.email)) continue;
    passwordHash ??= await hash(password);
    const [first, ...others] = m.videos;
    const { userId, videoId } = await registerUser(
      events,
      { email: m.email, pseudo: m.pseudo, passwordHash, bio: m.bio },
      { ids, video: await video(first) },
      ctx(),
    );
    seeded[m.pseudo] = { userId, videoIds: [videoId!] };
    for (const v of others)
      seeded[m.pseudo].videoIds.push(
        (await uploadVideo(events, ids, userId, await video(v), { ...ctx(), userId })).videoId,
      );
    created++;
  }
  // a lived-in start, only on a log that had none of the demo members
  if (created === DEMO_MEMBERS.length) await seedDemoLife(events, ids, seeded, ctx);
  return created;
}

/** Follows, likes, a comment thread, and some coins and a gift between the demo members. */
async function seedDemoLife(
  events: EventStore,
  ids: IdAllocator,
  seeded: Record<string, { userId: string; videoIds: number[] }>,
  ctx: () => CommandContext,
): Promise<void> {
  const { lea, hugo, ines } = seeded as Record<'lea' | 'hugo' | 'ines', { userId: string; videoIds: number[] }>;
  const as = (userId: string) => ({ ...ctx(), userId });
  await setFollowing(events, lea.userId, hugo.userId, true, as(lea.userId));
  await setFollowing(events, hugo.userId, lea.userId, true, as(hugo.userId));
  await setFollowing(events, ines.userId, lea.userId, true, as(ines.userId));
  await setLike(events, hugo.userId, lea.videoIds[0], true, as(hugo.userId));
  await setLike(events, ines.userId, lea.videoIds[0], true, as(ines.userId));
  await setLike(events, lea.userId, hugo.videoIds[0], true, as(lea.userId));
  const { comment } = await postComment(
    events,
    ids,
    { videoId: lea.videoIds[0], authorId: hugo.userId, parentId: null, content: 'Trop bien cette vidéo ! 👏' },
    as(hugo.userId),
  );
  await postComment(
    events,
    ids,
    { videoId: lea.videoIds[0], authorId: lea.userId, parentId: comment.id, content: 'Merci Hugo 😊' },
    as(lea.userId),
  );
  const requests = new WalletRequests(events, { payment: new SandboxPaymentProvider(), feePercent: 0, ids });
  for (const m of DEMO_MEMBERS)
    await buyPack(requests, seeded[m.pseudo].userId, { email: m.email, packId: 1 }, as(seeded[m.pseudo].userId));
  await sendGift(
    requests,
    hugo.userId,
    { sender_email: 'hugo@evo.local', receiver_email: 'lea@evo.local', gift_id: 1 },
    as(hugo.userId),
  );
}
