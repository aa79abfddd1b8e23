import type { ViewerVideo } from '@evo/contracts';

/** For the tests: video `id`, public and ready, of member p{id}, as the server sends it; `fields` changes any of it. */
export const testVideo = (id: number, fields: Partial<ViewerVideo> = {}): ViewerVideo => ({
  id,
  title: `v${id}`,
  description: '',
  file_path: `/uploads/videos/${id}.mp4`,
  user_email: `p${id}@test.fr`,
  email: `p${id}@test.fr`,
  owner_email: `p${id}@test.fr`,
  user_pseudo: `p${id}`,
  user_profile_picture: '',
  likes_count: 0,
  comments_count: 0,
  views_count: 0,
  status: 'publique',
  processing: 'prête',
  reject_reason: null,
  moderation_message: null,
  poster: null,
  duration: null,
  created_at: '2026-03-01T10:00:00.000Z',
  liked_by_me: false,
  favorited_by_me: false,
  ...fields,
});
