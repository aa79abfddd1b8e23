import type { Video } from '../../videos/types';

/**
 * The vertical feed of "Pour toi" (/feed), as a pure reducer: which videos are listed, which one is
 * the visible one, which ones may load their media, sound and pause, and the pages still to ask.
 *
 *   friends page 1, 2, … ──a short page──▶ discover page 1, 2, … ──a short page──▶ end
 *   (GET /api/videos/friends-feed)          (other members' videos, GET /api/users/with-videos)
 *
 * One video at a time is the visible one (`index`); each time another one becomes visible is a new
 * display (`display` grows), for which the screen counts one view (the product specification: "Video views are counted
 * once per card display"). Only the visible video and the next one get their media (`isLoaded`).
 * The pages are the query cache's (feedApi.ts): the screen reports what it holds ('pages'), asks
 * the page `pageToLoad` names, and performs the other side effects (scrolling, play/pause).
 */

export type FeedSource = 'friends' | 'discover';

export interface FeedPage {
  source: FeedSource;
  page: number;
}

export interface FeedItem {
  video: Video;
  /** friends: someone the member follows; discover: another member's video (after the friends' ones) */
  source: FeedSource;
}

/** What the cache holds of the feed's pages (`feedPagesOf`), as the screen reports it. */
export interface FeedPages {
  items: FeedItem[];
  /** the next page to ask, null once both lists are exhausted */
  next: FeedPage | null;
  /** a page request is in flight */
  loading: boolean;
  /** the last page request failed (no automatic retry: `retry`) */
  failed: boolean;
  /** the source of the failed request */
  failedSource: FeedSource | null;
}

export interface FeedState extends FeedPages {
  /** the visible slide: an item, or the closing slide just after the last one (`hasClosingSlide`) */
  index: number;
  /** sound off (the default: browsers play muted videos without a gesture) */
  muted: boolean;
  /** the member paused the visible video */
  paused: boolean;
  /** grows each time a video becomes the visible one: one view per display */
  display: number;
  /** "next" was asked on the last video while more were coming: it moves once they are there */
  pendingNext: boolean;
}

export type FeedAction =
  /** what the cache holds changed: a page asked, answered or failed, a video's counters */
  | ({ type: 'pages' } & FeedPages)
  | { type: 'retry' }
  /** the scroller settled on this slide (swipe, wheel, keys, focus) */
  | { type: 'show'; index: number }
  /** next (+1) or previous (-1) slide: arrow keys, Page Down/Up, wheel */
  | { type: 'step'; delta: number }
  /** a tap on the video: the first one turns the sound on, then it pauses and plays */
  | { type: 'tap' }
  | { type: 'toggleMute' }
  | { type: 'togglePause' }
  /** the browser refused to play with sound (no user gesture yet): back to muted */
  | { type: 'playBlocked' };

/** friends' videos asked per page */
export const FRIENDS_PAGE_SIZE = 10;
/** members asked per page of other members (each comes with a few videos) */
export const DISCOVER_PAGE_SIZE = 5;
/** the next page is asked when the visible video is this close to the last one */
export const PREFETCH_AHEAD = 3;
/** slides around the visible one that keep their content mounted (posters, actions) */
export const NEAR = 2;

export const initialFeedState: FeedState = {
  items: [],
  index: 0,
  muted: true,
  paused: false,
  display: 0,
  next: { source: 'friends', page: 1 },
  loading: false,
  failed: false,
  failedSource: null,
  pendingNext: false,
};

// ---------- Derived facts ----------

/** After the last video: a closing slide says the list ended (or failed to continue). */
export const hasClosingSlide = (state: FeedState) => state.items.length > 0 && (state.next === null || state.failed);

export const slideCount = (state: FeedState) => state.items.length + (hasClosingSlide(state) ? 1 : 0);

/** The visible video, or null (closing slide, empty list). */
export const currentItem = (state: FeedState): FeedItem | null => state.items[state.index] ?? null;

/** Only the visible video and the next one get their media; the others have no src. */
export const isLoaded = (state: FeedState, i: number) =>
  i >= 0 && i < state.items.length && (i === state.index || i === state.index + 1);

/** Slides around the visible one keep their content (poster, author, actions); farther ones are empty boxes. */
export const isNear = (state: FeedState, i: number) => Math.abs(i - state.index) <= NEAR;

/** The page to ask now, if any: the member is near the end of what is listed and nothing is in flight. */
export function pageToLoad(state: FeedState): FeedPage | null {
  if (!state.next || state.failed) return null;
  if (state.items.length - 1 - state.index > PREFETCH_AHEAD) return null;
  return state.next;
}

/** Nothing listed and nothing more to ask: 'Aucun contenu'. */
export const isEmpty = (state: FeedState) => state.items.length === 0 && state.next === null;

/** Nothing listed because the first request failed. */
export const isFailedEmpty = (state: FeedState) => state.items.length === 0 && state.failed;

/** Other members' videos in turns, one member's first video each, then their second…: [[a1, a2], [b1]] → a1, b1, a2 */
export function inTurns<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

/** One page's answer: `more` is false when its source has nothing after it. */
export interface FeedPageAnswer {
  videos: Video[];
  more: boolean;
}

/** The page after `asked`: the next of its source, the other members' first after the friends', or none. */
export function pageAfter(asked: FeedPage, answer: FeedPageAnswer): FeedPage | null {
  if (answer.more) return { source: asked.source, page: asked.page + 1 };
  return asked.source === 'friends' ? { source: 'discover', page: 1 } : null;
}

/** The videos of the pages answered, in order, each once (a member's video can be on two pages). */
export function listedItems(answers: FeedPageAnswer[], asked: FeedPage[]): FeedItem[] {
  const known = new Set<number>();
  const items: FeedItem[] = [];
  answers.forEach((answer, i) => {
    for (const video of answer.videos) {
      if (known.has(video.id)) continue;
      known.add(video.id);
      items.push({ video, source: asked[i].source });
    }
  });
  return items;
}

// ---------- Reducer ----------

function moveTo(state: FeedState, target: number): FeedState {
  const last = slideCount(state) - 1;
  if (last < 0 || !Number.isFinite(target)) return state;
  const index = Math.min(last, Math.max(0, Math.trunc(target)));
  if (index === state.index) return state;
  return { ...state, index, paused: false, display: state.display + 1 };
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'pages': {
      const { items, next, loading, failed, failedSource } = action;
      // the first video listed is displayed as soon as it arrives
      const firstShown = state.items.length === 0 && items.length > 0;
      const updated: FeedState = {
        ...state,
        items,
        next,
        loading,
        failed,
        failedSource,
        display: firstShown ? state.display + 1 : state.display,
        index: firstShown ? 0 : state.index,
      };
      if (!state.pendingNext || loading) return updated;
      if (failed) return { ...updated, pendingNext: false };
      // the move asked while this page was coming: to its first video (or the closing slide at the end)
      if (state.index + 1 < slideCount(updated)) return { ...moveTo(updated, state.index + 1), pendingNext: false };
      // nothing new, more to come: still waiting
      return next ? updated : { ...updated, pendingNext: false };
    }

    case 'retry': {
      if (!state.failed) return state;
      const cleared = { ...state, failed: false, failedSource: null };
      // the closing slide that said "failed" goes away: back on the last video
      return cleared.index >= slideCount(cleared) ? moveTo(cleared, slideCount(cleared) - 1) : cleared;
    }

    case 'show': {
      const moved = moveTo(state, action.index);
      return moved !== state && state.pendingNext ? { ...moved, pendingNext: false } : moved;
    }

    case 'step': {
      if (action.delta === 0) return state;
      const last = slideCount(state) - 1;
      // on the last video while more are coming: the move waits for them
      if (action.delta > 0 && state.index >= last && state.next && !state.failed && state.items.length > 0) {
        return state.pendingNext ? state : { ...state, pendingNext: true };
      }
      const moved = moveTo(state, state.index + Math.sign(action.delta));
      return state.pendingNext ? { ...moved, pendingNext: false } : moved;
    }

    case 'tap':
      if (!currentItem(state)) return state;
      // a tap pauses and plays, as on any video app; the sound has its own control ("Activer le son")
      return { ...state, paused: !state.paused };

    case 'toggleMute':
      return { ...state, muted: !state.muted };

    case 'togglePause':
      return currentItem(state) ? { ...state, paused: !state.paused } : state;

    case 'playBlocked':
      return state.muted ? state : { ...state, muted: true };
  }
}
