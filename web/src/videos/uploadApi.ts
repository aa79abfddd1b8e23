import { VideoUploadedAnswer } from '@evo/contracts';
import { uploadWithProgress } from '../api/http';
import { decode } from '../api/decode';

export interface VideoUpload {
  file: File;
  title: string;
  description: string;
  /** Sent for compatibility; the server takes the identity from the session. */
  email: string;
  pseudo: string;
}

/** POST /api/videos/upload (multipart: video, title, description, email, pseudo) → 201 {video}. */
export async function uploadVideo(
  input: VideoUpload,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<VideoUploadedAnswer> {
  const form = new FormData();
  form.append('video', input.file);
  form.append('title', input.title);
  form.append('description', input.description);
  form.append('email', input.email);
  form.append('pseudo', input.pseudo);
  return decode(VideoUploadedAnswer, await uploadWithProgress('/api/videos/upload', form, { onProgress, signal }));
}
