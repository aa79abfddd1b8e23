import { describe, expect, it } from 'vitest';
import type { Video } from '../videos/types';
import { pickHomeVideos } from './homeVideos';

const video = (id: number, file_path = `/uploads/videos/${id}.mp4`): Video => ({
  id,
  title: `v${id}`,
  description: '',
  file_path,
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
  poster: null,
  duration: null,
  created_at: '2026-03-01T10:00:00.000Z',
});

describe('the videos of the home page', () => {
  it("shows the followed members' newest videos first, then the suggestions", () => {
    expect(pickHomeVideos([video(5), video(4)], [video(9), video(8)]).map((v) => v.id)).toEqual([5, 4, 9, 8]);
  });

  it('shows a video once, even when it is both a friend video and a suggestion', () => {
    expect(pickHomeVideos([video(5)], [video(5), video(7)]).map((v) => v.id)).toEqual([5, 7]);
  });

  it('keeps to the count asked for', () => {
    const many = Array.from({ length: 10 }, (_, i) => video(i + 1));
    expect(pickHomeVideos(many, [video(99)], 6).map((v) => v.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('leaves out a video without a file to play', () => {
    expect(pickHomeVideos([video(1, '')], [video(2)]).map((v) => v.id)).toEqual([2]);
  });

  it('shows nothing when there is nothing', () => {
    expect(pickHomeVideos([], [])).toEqual([]);
  });
});
