import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { videoDecider, type VideoState } from '../videos/video-decider';
import type { VideoStreamEvent } from '../videos/video-decider';
import type { CommentPosted } from './events';
import { commentDecider, legacyVideoComments, type CommentCommand, type PostedComment } from './comment-decider';
import {
  COMMENT_LIMITS,
  COMMENT_MESSAGES,
  CommentBody,
  ParentIdField,
  commentStream,
  legacyCommentsStream,
} from './rules';
import { videoUploaded } from '../videos/testing';

const uploaded = videoUploaded();
const video = (...events: VideoStreamEvent[]): VideoState => fold(videoDecider, [uploaded, ...events]);

/** the comment answered, as its own stream gives it */
const answered = (commentId: number, parentId: number | null, videoId = 7): PostedComment => ({
  commentId,
  videoId,
  parentId,
});
const post = (
  commentId: number,
  parent: PostedComment | null,
  patch: Partial<CommentCommand> = {},
): CommentCommand => ({
  type: 'PostComment',
  commentId,
  videoId: 7,
  authorId: 'author',
  parentId: parent?.commentId ?? null,
  content: `Commentaire ${commentId}`,
  video: video(),
  parent,
  ...patch,
});
const posted = (
  commentId: number,
  parentId: number | null,
  patch: Partial<CommentPosted['data']> = {},
): CommentPosted => ({
  type: 'CommentPosted',
  data: {
    commentId,
    videoId: 7,
    videoOwnerId: 'owner',
    authorId: 'author',
    parentId,
    content: `Commentaire ${commentId}`,
    ...patch,
  },
});

describe('comment decider (one stream per comment)', () => {
  it('posts a top-level comment, carrying the video owner', () => {
    given(commentDecider)
      .when(post(1, null))
      .then([posted(1, null)]);
  });
  it('posts a reply under a top-level comment', () => {
    given(commentDecider)
      .when(post(2, answered(1, null)))
      .then([posted(2, 1)]);
  });
  it('attaches a reply to a reply to its top-level comment (one level deep)', () => {
    given(commentDecider)
      .when(post(3, answered(2, 1)))
      .then([posted(3, 1)]);
    given(commentDecider)
      .when(post(4, answered(3, 1)))
      .then([posted(4, 1)]);
  });
  it('refuses a parent that is not a comment of this video', () => {
    // none found
    given(commentDecider)
      .when(post(2, null, { parentId: 99 }))
      .thenThrows(COMMENT_MESSAGES.parentNotFound, 'invalid');
    // a comment of another video
    given(commentDecider)
      .when(post(2, answered(1, null, 8)))
      .thenThrows(COMMENT_MESSAGES.parentNotFound, 'invalid');
    // another comment than the one named
    given(commentDecider)
      .when(post(2, answered(1, null), { parentId: 5 }))
      .thenThrows(COMMENT_MESSAGES.parentNotFound, 'invalid');
  });
  it('writes a comment’s stream once', () => {
    given(commentDecider, [posted(1, null)])
      .when(post(1, null))
      .thenThrows(COMMENT_MESSAGES.alreadyPosted, 'conflict');
    expect(fold(commentDecider, [posted(2, 1)])).toEqual({ comment: answered(2, 1) });
  });
  it('refuses an empty or blank text, trims the text', () => {
    given(commentDecider)
      .when(post(1, null, { content: '' }))
      .thenThrows(COMMENT_MESSAGES.empty, 'invalid');
    given(commentDecider)
      .when(post(1, null, { content: ' \n\t ' }))
      .thenThrows(COMMENT_MESSAGES.empty, 'invalid');
    given(commentDecider)
      .when(post(1, null, { content: '  Bravo !  ' }))
      .then([posted(1, null, { content: 'Bravo !' })]);
  });
  it(`accepts ${COMMENT_LIMITS.contentMax} characters, not one more`, () => {
    const max = 'é'.repeat(COMMENT_LIMITS.contentMax);
    given(commentDecider)
      .when(post(1, null, { content: max }))
      .then([posted(1, null, { content: max })]);
    given(commentDecider)
      .when(post(1, null, { content: `${max}x` }))
      .thenThrows(COMMENT_MESSAGES.tooLong, 'invalid');
  });
  it('refuses an unknown, deleted or rejected video with 404', () => {
    given(commentDecider)
      .when(post(1, null, { video: fold(videoDecider, []) }))
      .thenThrows(COMMENT_MESSAGES.videoNotFound, 'not_found');
    const deleted: VideoStreamEvent = {
      type: 'VideoDeleted',
      data: { videoId: 7, ownerId: 'owner', deletedBy: 'owner' },
    };
    given(commentDecider)
      .when(post(1, null, { video: video(deleted) }))
      .thenThrows('Vidéo introuvable.', 'not_found');
    const rejected: VideoStreamEvent = { type: 'VideoRejected', data: { videoId: 7, reason: 'x' } };
    given(commentDecider)
      .when(post(1, null, { video: video(rejected) }))
      .thenThrows('Vidéo introuvable.', 'not_found');
  });
  it('checks the text before the video, and the video before the parent', () => {
    given(commentDecider)
      .when(post(1, null, { parentId: 5, content: ' ', video: fold(videoDecider, []) }))
      .thenThrows(COMMENT_MESSAGES.empty, 'invalid');
    given(commentDecider)
      .when(post(1, null, { parentId: 5, video: fold(videoDecider, []) }))
      .thenThrows(COMMENT_MESSAGES.videoNotFound, 'not_found');
  });
  it('lets the owner comment their own video', () => {
    given(commentDecider)
      .when(post(1, null, { authorId: 'owner' }))
      .then([posted(1, null, { authorId: 'owner' })]);
  });
  it('reads the comments an older log kept on their video’s stream', () => {
    const old = legacyVideoComments([posted(1, null), posted(2, 1), posted(3, null, { videoId: 8 })], 7);
    expect([...old.values()]).toEqual([answered(1, null), answered(2, 1)]);
    given(commentDecider)
      .when(post(4, old.get(2)!))
      .then([posted(4, 1)]);
  });
});

describe('comment rules', () => {
  it('names a stream per comment (older logs: per video)', () => {
    expect(commentStream(12)).toBe('comment-12');
    expect(legacyCommentsStream(7)).toBe('comments-7');
  });
  it.each([
    [undefined, null],
    [null, null],
    ['', null],
    ['  ', null],
    [0, null],
    ['0', null],
    [12, 12],
    ['12', 12],
  ])('reads parentId %o as %o', (raw, expected) => {
    expect(ParentIdField.parse(raw)).toBe(expected);
  });
  it.each([['abc'], ['1.5'], [-3], [true], [{}]])('refuses parentId %o with a French message', (raw) => {
    const r = CommentBody.safeParse({ content: 'x', parentId: raw });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe(COMMENT_MESSAGES.parentNotFound);
  });
  it('requires a text', () => {
    expect(CommentBody.safeParse({}).error?.issues[0].message).toBe(COMMENT_MESSAGES.empty);
    expect(CommentBody.safeParse({ content: 42 }).error?.issues[0].message).toBe(COMMENT_MESSAGES.empty);
  });
});
