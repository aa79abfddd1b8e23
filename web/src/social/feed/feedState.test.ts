import { describe, expect, it } from 'vitest';
import type { Video } from '../../videos/types';
import {
  FRIENDS_PAGE_SIZE,
  PREFETCH_AHEAD,
  currentItem,
  feedReducer,
  hasClosingSlide,
  inTurns,
  initialFeedState,
  isEmpty,
  isFailedEmpty,
  isLoaded,
  isNear,
  listedItems,
  pageAfter,
  pageToLoad,
  slideCount,
  type FeedAction,
  type FeedPages,
  type FeedSource,
  type FeedState,
} from './feedState';
import { testVideo } from '../../videos/testVideo';

const run = (state: FeedState, ...actions: FeedAction[]) => actions.reduce(feedReducer, state);

const video = (id: number) => testVideo(id);

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => video(from + i));

/** What the cache holds, as the screen reports it: the state's pages, changed by `change`. */
const pages = (state: FeedState, change: Partial<FeedPages> = {}): FeedAction => ({
  type: 'pages',
  items: state.items,
  next: state.next,
  loading: false,
  failed: false,
  failedSource: null,
  ...change,
});
/** the next page asked */
const requested = (state: FeedState) => pages(state, { loading: true });
/** the page asked answered (its videos after those listed, each once) */
const answered = (state: FeedState, source: FeedSource, page: number, videos: Video[], more: boolean): FeedAction => {
  const known = new Set(state.items.map((item) => item.video.id));
  const added = listedItems([{ videos, more }], [{ source, page }]).filter((item) => !known.has(item.video.id));
  return pages(state, { items: [...state.items, ...added], next: pageAfter({ source, page }, { videos, more }) });
};
/** the page asked failed */
const failedPage = (state: FeedState): FeedAction =>
  pages(state, { failed: true, failedSource: state.next?.source ?? null });

/** request then answer the expected page */
const load = (state: FeedState, source: FeedSource, page: number, videos: Video[], more: boolean) => {
  const asking = run(state, requested(state));
  return run(asking, answered(asking, source, page, videos, more));
};

const withFriends = (count: number, more = false) => load(initialFeedState, 'friends', 1, range(1, count), more);

const ids = (state: FeedState) => state.items.map((item) => item.video.id);

describe('feed: initial state', () => {
  it('lists nothing, muted, asks the first page of friends', () => {
    expect(initialFeedState).toMatchObject({
      items: [],
      index: 0,
      muted: true,
      paused: false,
      display: 0,
      pendingNext: false,
    });
    expect(pageToLoad(initialFeedState)).toEqual({ source: 'friends', page: 1 });
    expect(currentItem(initialFeedState)).toBeNull();
    expect(isEmpty(initialFeedState)).toBe(false);
  });
});

describe('feed: pages', () => {
  it('the first videos are listed and the first one is displayed (one display)', () => {
    const state = withFriends(3, true);
    expect(ids(state)).toEqual([1, 2, 3]);
    expect(state.items.every((item) => item.source === 'friends')).toBe(true);
    expect(currentItem(state)?.video.id).toBe(1);
    expect(state.display).toBe(1);
    expect(state.next).toEqual({ source: 'friends', page: 2 });
    expect(state.loading).toBe(false);
  });

  it('a short page of friends continues with other members (discover), then ends', () => {
    const friendsDone = withFriends(2, false);
    expect(friendsDone.next).toEqual({ source: 'discover', page: 1 });
    const discover1 = load(friendsDone, 'discover', 1, range(10, 3), true);
    expect(ids(discover1)).toEqual([1, 2, 10, 11, 12]);
    expect(discover1.items.slice(2).every((item) => item.source === 'discover')).toBe(true);
    expect(discover1.next).toEqual({ source: 'discover', page: 2 });
    const end = load(discover1, 'discover', 2, [], false);
    expect(end.next).toBeNull();
    expect(pageToLoad(end)).toBeNull();
    expect(hasClosingSlide(end)).toBe(true);
    expect(slideCount(end)).toBe(6);
  });

  it('no friends: other members’ videos come first, displayed when they arrive', () => {
    const noFriends = load(initialFeedState, 'friends', 1, [], false);
    expect(noFriends.display).toBe(0);
    expect(isEmpty(noFriends)).toBe(false);
    const state = load(noFriends, 'discover', 1, range(5, 2), false);
    expect(currentItem(state)?.video.id).toBe(5);
    expect(state.display).toBe(1);
  });

  it("'Aucun contenu' only once both lists are empty", () => {
    const state = load(load(initialFeedState, 'friends', 1, [], false), 'discover', 1, [], false);
    expect(isEmpty(state)).toBe(true);
    expect(hasClosingSlide(state)).toBe(false);
  });

  it('a video already listed is not listed twice', () => {
    const state = load(withFriends(2, false), 'discover', 1, [video(2), video(3)], false);
    expect(ids(state)).toEqual([1, 2, 3]);
  });

  it('the pages answered list their videos in order, each once; a short page moves to the next source', () => {
    const items = listedItems(
      [
        { videos: [video(1), video(2)], more: false },
        { videos: [video(2), video(3)], more: true },
      ],
      [
        { source: 'friends', page: 1 },
        { source: 'discover', page: 1 },
      ],
    );
    expect(items.map((item) => [item.video.id, item.source])).toEqual([
      [1, 'friends'],
      [2, 'friends'],
      [3, 'discover'],
    ]);
    expect(pageAfter({ source: 'friends', page: 1 }, { videos: [], more: true })).toEqual({
      source: 'friends',
      page: 2,
    });
    expect(pageAfter({ source: 'friends', page: 3 }, { videos: [], more: false })).toEqual({
      source: 'discover',
      page: 1,
    });
    expect(pageAfter({ source: 'discover', page: 2 }, { videos: [], more: false })).toBeNull();
  });

  it('the next page is asked only near the end of the list (lazy)', () => {
    const state = withFriends(FRIENDS_PAGE_SIZE, true);
    expect(pageToLoad(state)).toBeNull();
    const near = run(state, { type: 'show', index: FRIENDS_PAGE_SIZE - 1 - PREFETCH_AHEAD });
    expect(pageToLoad(near)).toEqual({ source: 'friends', page: 2 });
  });

  it('a failure stops the requests until retry; the first one leaves an error instead of the list', () => {
    const failed = run(initialFeedState, failedPage(initialFeedState));
    expect(isFailedEmpty(failed)).toBe(true);
    expect(failed.failedSource).toBe('friends');
    expect(pageToLoad(failed)).toBeNull();
    const retried = run(failed, { type: 'retry' });
    expect(pageToLoad(retried)).toEqual({ source: 'friends', page: 1 });
    expect(isFailedEmpty(retried)).toBe(false);
  });

  it('a later failure shows a closing slide; retry goes back to the last video', () => {
    const listed = withFriends(2, true);
    const failed = run(listed, requested(listed), failedPage(listed), { type: 'show', index: 2 });
    expect(hasClosingSlide(failed)).toBe(true);
    expect(failed.index).toBe(2);
    expect(currentItem(failed)).toBeNull();
    const retried = run(failed, { type: 'retry' });
    expect(retried.index).toBe(1);
    expect(hasClosingSlide(retried)).toBe(false);
  });
});

describe('feed: moving from one video to the next', () => {
  const listed = () => withFriends(5, true);

  it('step moves by one, within the list; each new visible video is a new display', () => {
    let state = listed();
    state = run(state, { type: 'step', delta: 1 });
    expect(state.index).toBe(1);
    expect(state.display).toBe(2);
    state = run(state, { type: 'step', delta: 1 }, { type: 'step', delta: -1 });
    expect(state.index).toBe(1);
    expect(state.display).toBe(4);
    expect(run(state, { type: 'step', delta: -1 }, { type: 'step', delta: -1 }).index).toBe(0);
    // a big wheel delta is still one video
    expect(run(state, { type: 'step', delta: 5 }).index).toBe(2);
  });

  it('settling again on the visible video is not a new display', () => {
    const state = run(listed(), { type: 'show', index: 2 });
    expect(run(state, { type: 'show', index: 2 })).toBe(state);
    expect(run(state, { type: 'step', delta: 0 })).toBe(state);
  });

  it('show is clamped to the slides there are (no closing slide while more may come)', () => {
    expect(run(listed(), { type: 'show', index: 99 }).index).toBe(4);
    expect(run(listed(), { type: 'show', index: -3 }).index).toBe(0);
    expect(run(listed(), { type: 'show', index: Number.NaN }).index).toBe(0);
    const ended = withFriends(2, false);
    const closed = load(ended, 'discover', 1, [], false);
    expect(run(closed, { type: 'show', index: 99 }).index).toBe(2);
  });

  it('only the visible video and the next one are loaded; two around stay near', () => {
    const state = run(listed(), { type: 'show', index: 2 });
    const loaded = state.items.map((_, i) => isLoaded(state, i));
    expect(loaded).toEqual([false, false, true, true, false]);
    expect(isLoaded(state, 5)).toBe(false);
    expect(state.items.map((_, i) => isNear(state, i))).toEqual([true, true, true, true, true]);
    const far = run(withFriends(8, true), { type: 'show', index: 5 });
    expect(far.items.map((_, i) => isNear(far, i))).toEqual([false, false, false, true, true, true, true, true]);
  });

  it('next on the last video while more are coming: the feed moves once they are there', () => {
    // the friends' page is short: other members' videos are on their way
    const shown = run(withFriends(2, false), { type: 'show', index: 1 });
    const atLast = run(shown, requested(shown));
    const asked = run(atLast, { type: 'step', delta: 1 });
    expect(asked).toMatchObject({ index: 1, pendingNext: true });
    expect(run(asked, { type: 'step', delta: 1 })).toBe(asked);
    // a counter changed meanwhile (the page still coming): still waiting
    expect(run(asked, requested(asked))).toMatchObject({ index: 1, pendingNext: true });
    const arrived = run(asked, answered(asked, 'discover', 1, [video(9)], true));
    expect(arrived).toMatchObject({ index: 2, pendingNext: false, display: asked.display + 1 });
    expect(currentItem(arrived)?.video.id).toBe(9);
  });

  it('a pending move: kept over an empty page with more to come, to the closing slide at the end, dropped on failure or another move', () => {
    const shown = run(withFriends(2, false), { type: 'show', index: 1 });
    const asked = run(shown, requested(shown), { type: 'step', delta: 1 });
    const empty = run(asked, answered(asked, 'discover', 1, [], true));
    expect(empty).toMatchObject({ index: 1, pendingNext: true });
    const asking = run(empty, requested(empty));
    const end = run(asking, answered(asking, 'discover', 2, [], false));
    expect(end).toMatchObject({ index: 2, pendingNext: false });
    expect(currentItem(end)).toBeNull();
    const failed = run(asked, failedPage(asked));
    expect(failed).toMatchObject({ index: 1, pendingNext: false });
    const back = run(asked, { type: 'step', delta: -1 });
    expect(back).toMatchObject({ index: 0, pendingNext: false });
  });

  it('the last video has nothing after it to load', () => {
    const state = run(listed(), { type: 'show', index: 4 });
    expect(state.items.map((_, i) => isLoaded(state, i)).filter(Boolean)).toHaveLength(1);
  });
});

describe('feed: sound and pause', () => {
  it('a tap pauses and plays, muted or not; it leaves the sound as it is', () => {
    let state = withFriends(2);
    expect(state.muted).toBe(true);
    state = run(state, { type: 'tap' });
    expect(state).toMatchObject({ muted: true, paused: true });
    state = run(state, { type: 'tap' });
    expect(state).toMatchObject({ muted: true, paused: false });
    state = run(state, { type: 'toggleMute' });
    state = run(state, { type: 'tap' });
    expect(state).toMatchObject({ muted: false, paused: true });
  });

  it('the sound button toggles; the sound choice stays for the next video, a pause does not', () => {
    let state = run(withFriends(2), { type: 'toggleMute' }, { type: 'togglePause' });
    expect(state).toMatchObject({ muted: false, paused: true });
    state = run(state, { type: 'step', delta: 1 });
    expect(state).toMatchObject({ muted: false, paused: false, index: 1 });
    expect(run(state, { type: 'toggleMute' }).muted).toBe(true);
  });

  it('a refused play with sound goes back to muted', () => {
    const unmuted = run(withFriends(1), { type: 'toggleMute' });
    expect(run(unmuted, { type: 'playBlocked' }).muted).toBe(true);
    const muted = withFriends(1);
    expect(run(muted, { type: 'playBlocked' })).toBe(muted);
  });

  it('tap and pause do nothing without a visible video', () => {
    expect(run(initialFeedState, { type: 'tap' })).toBe(initialFeedState);
    expect(run(initialFeedState, { type: 'togglePause' })).toBe(initialFeedState);
  });
});

describe('feed: other members in turns', () => {
  it('takes one video of each member in turn', () => {
    expect(inTurns([['a1', 'a2'], ['b1'], ['c1', 'c2', 'c3']])).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'c3']);
    expect(inTurns([])).toEqual([]);
  });
});
