import { describe, expect, it } from 'vitest';
import { pickHomeVideos } from './homeVideos';
import { testVideo } from '../videos/testVideo';

const video = (id: number, file_path?: string) => testVideo(id, file_path === undefined ? {} : { file_path });

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
