import { ProfileEditedAnswer } from '@evo/contracts';
import { uploadWithProgress } from '../api/http';
import { decode } from '../api/decode';

/** PUT /api/users/me/profile (multipart): the bio, and a new picture when one was chosen. */
export async function saveProfile(
  input: { bio: string; picture: File | null },
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ProfileEditedAnswer> {
  const form = new FormData();
  form.append('bio', input.bio);
  if (input.picture) form.append('profilePic', input.picture);
  return decode(
    ProfileEditedAnswer,
    await uploadWithProgress('/api/users/me/profile', form, { method: 'PUT', onProgress, signal }),
  );
}
