import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { EventStore } from '@evo/infra';
import type { CommandContext } from '@evo/infra';
import type { UploadStore } from '../uploads/upload-store';
import { findUserByEmail, registerUser, uploadVideo } from '../identity/commands';

export const DEMO_PASSWORD = 'evo-demo-2026';

/** Demo members, each with videos shipped in command-api/assets/demo. */
export const DEMO_MEMBERS = [
  { email: 'lea@evo.local', pseudo: 'lea', bio: 'Danse, musique et bonne humeur 💃', videos: [['demo-1.mp4', 'Mes premiers pas sur EVO']] },
  { email: 'hugo@evo.local', pseudo: 'hugo', bio: 'Fractales et maths pour tous', videos: [['demo-2.mp4', 'Voyage dans une fractale'], ['demo-4.mp4', 'Couleurs primaires']] },
  { email: 'ines@evo.local', pseudo: 'ines', bio: 'Rétro et mire de télé 📺', videos: [['demo-3.mp4', 'La mire du dimanche']] },
] as const;

/**
 * Seed the demo members on a log that does not have them yet (safe at every start: a member
 * already there is left alone).
 */
export async function seedDemoData(
  events: EventStore,
  uploads: UploadStore,
  hash: (p: string) => Promise<string>,
  ctx: () => CommandContext,
): Promise<number> {
  let created = 0;
  let passwordHash: string | undefined;
  const video = async ([file, title]: readonly [string, string]) => {
    const name = await uploads.importAsset(`demo/${file}`, 'videos');
    const { size } = await stat(path.join(uploads.root, 'videos', name));
    return { title, description: 'Vidéo de démonstration', filePath: `/uploads/videos/${name}`, mimeType: 'video/mp4', sizeBytes: size };
  };
  for (const m of DEMO_MEMBERS) {
    if (await findUserByEmail(events, m.email)) continue;
    passwordHash ??= await hash(DEMO_PASSWORD);
    const [first, ...others] = m.videos;
    const { userId } = await registerUser(events, { email: m.email, pseudo: m.pseudo, passwordHash, bio: m.bio }, await video(first), ctx());
    for (const v of others) await uploadVideo(events, userId, await video(v), { ...ctx(), userId });
    created++;
  }
  return created;
}
