import { uploadWithProgress } from '../api/http';

export interface VideoUpload {
  file: File;
  title: string;
  description: string;
  /** Sent for compatibility; the server takes the identity from the session. */
  email: string;
  pseudo: string;
}

/** POST /api/videos/upload (multipart: video, title, description, email, pseudo) → 201 {video}. */
export function uploadVideo(input: VideoUpload, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('video', input.file);
  form.append('title', input.title);
  form.append('description', input.description);
  form.append('email', input.email);
  form.append('pseudo', input.pseudo);
  return uploadWithProgress<{ video?: unknown }>('/api/videos/upload', form, { onProgress, signal });
}
