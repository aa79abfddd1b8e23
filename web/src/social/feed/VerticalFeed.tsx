import { useEffect, useLayoutEffect, useRef, useState, type Dispatch } from 'react';
import { Link } from 'react-router-dom';
import { ChevronDownIcon, ChevronUpIcon } from '../../videos/icons';
import { FeedSlide } from './FeedSlide';
import { hasClosingSlide, isLoaded, isNear, slideCount, type FeedAction, type FeedState } from './feedState';

const END = 'Tu as tout vu pour le moment.';
const MORE_FAILED = 'Impossible de charger la suite du feed.';
const HINT =
  'Une vidéo à la fois : flèches haut et bas, Page précédente et Page suivante, ou la molette pour changer de vidéo ; la touche M coupe ou active le son.';
/** a wheel gesture moves one video; the next one counts after this quiet time */
const WHEEL_QUIET_MS = 180;
/** how long a scroll asked by key, wheel or button may take before a settled position overrides it */
const GOING_MS = 1500;
/** pixels of wheel travel that make a move */
const WHEEL_STEP = 25;

/** Keys that move to the next / previous video (the ARIA feed pattern uses Page Down / Page Up). */
const KEY_STEPS: Record<string, number> = { ArrowDown: 1, PageDown: 1, ArrowUp: -1, PageUp: -1 };

/** Where the arrow keys belong to someone else: fields, menus, dialogs. */
const OWN_KEYS =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="menu"], [role="dialog"], dialog';

interface VerticalFeedProps {
  state: FeedState;
  dispatch: Dispatch<FeedAction>;
  onRetry: () => void;
}

/**
 * The vertical feed: one video per screen in a scroll-snapped list (swipe), moved by the arrow
 * keys, Page Down / Page Up and the mouse wheel. The scroller reports the slide it settles on; a
 * move asked by key or wheel scrolls to it.
 */
export function VerticalFeed({ state, dispatch, onRetry }: VerticalFeedProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const feedRef = useRef<HTMLDivElement>(null);
  const [sheetHost, setSheetHost] = useState<HTMLDivElement | null>(null);
  const [commentsFor, setCommentsFor] = useState<number | null>(null);
  const indexRef = useRef(state.index);
  const sheetOpenRef = useRef(false);
  /** a scroll this component started (key, wheel, button) and the slide it goes to */
  const scrollingTo = useRef<{ index: number; at: number } | null>(null);
  const total = slideCount(state);
  const current = state.items[state.index]?.video.id ?? null;
  const sheetOpen = commentsFor !== null && commentsFor === current;
  useLayoutEffect(() => {
    indexRef.current = state.index;
    sheetOpenRef.current = sheetOpen;
  });

  // the scroller settled (swipe, wheel, keys, focus) on a slide: that one is the visible one. Settled
  // means 'scrollend' where the browser has it (else no scroll event for a while), at a snap point
  // (a slow device's frames can be far apart in the middle of a smooth scroll)
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(timer);
      const height = scroller.clientHeight;
      if (height <= 0) return;
      const index = Math.round(scroller.scrollTop / height);
      if (Math.abs(scroller.scrollTop - index * height) > 2) return;
      // the end of an earlier scroll, reported after a new move was asked: not where the feed goes
      const going = scrollingTo.current;
      if (going && going.index !== index && performance.now() - going.at < GOING_MS) return;
      scrollingTo.current = null;
      dispatch({ type: 'show', index });
    };
    // a finger or the mouse takes over: what it settles on wins
    const takeOver = () => {
      scrollingTo.current = null;
    };
    const hasScrollEnd = 'onscrollend' in window;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(settle, hasScrollEnd ? 1000 : 150);
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    scroller.addEventListener('scrollend', settle);
    scroller.addEventListener('touchstart', takeOver, { passive: true });
    scroller.addEventListener('pointerdown', takeOver);
    return () => {
      clearTimeout(timer);
      scroller.removeEventListener('scroll', onScroll);
      scroller.removeEventListener('scrollend', settle);
      scroller.removeEventListener('touchstart', takeOver);
      scroller.removeEventListener('pointerdown', takeOver);
    };
  }, [dispatch]);

  // a move asked by key, wheel or button: scroll to it (a settled swipe is already there)
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const top = state.index * scroller.clientHeight;
    if (Math.abs(scroller.scrollTop - top) < 2) return;
    const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    scrollingTo.current = { index: state.index, at: performance.now() };
    scroller.scrollTo({ top, behavior: smooth ? 'smooth' : 'auto' });
  }, [state.index]);

  // a new size (rotation, window resized, bars changed): stay on the visible video
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || typeof ResizeObserver === 'undefined') return;
    let height = scroller.clientHeight;
    const observer = new ResizeObserver(() => {
      if (scroller.clientHeight === height) return;
      height = scroller.clientHeight;
      scroller.scrollTo({ top: indexRef.current * height, behavior: 'auto' });
    });
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  // keys: on the feed, or on the page itself (nothing else focused)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const step = KEY_STEPS[event.key];
      const mute = event.key === 'm' || event.key === 'M';
      const pause = event.key === ' ';
      if (!step && !mute && !pause) return;
      if (sheetOpenRef.current || document.querySelector('dialog[open]')) return;
      const target = event.target instanceof Element ? event.target : null;
      const onPage = !target || target === document.body || target.id === 'contenu';
      if (!onPage && !feedRef.current?.contains(target)) return;
      if (target?.closest(OWN_KEYS)) return;
      // Space on a focused button or link presses it; elsewhere it pauses and plays (not a page scroll)
      if (pause && target?.closest('button, a')) return;
      event.preventDefault();
      // the focused control's slide leaves the screen (and the tab order): keep the focus on the feed
      if (step && target?.closest('.feed-slide')) scrollerRef.current?.focus({ preventScroll: true });
      dispatch(step ? { type: 'step', delta: step } : pause ? { type: 'togglePause' } : { type: 'toggleMute' });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [dispatch]);

  // the wheel: one video per gesture (a trackpad's long gesture would otherwise fly over several)
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    let travel = 0;
    let locked = false;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
      if (event.target instanceof Element && event.target.closest('[role="menu"]')) return;
      event.preventDefault();
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        locked = false;
        travel = 0;
      }, WHEEL_QUIET_MS);
      if (locked) return;
      travel += event.deltaMode === 1 ? event.deltaY * 40 : event.deltaMode === 2 ? event.deltaY * 800 : event.deltaY;
      if (Math.abs(travel) < WHEEL_STEP) return;
      dispatch({ type: 'step', delta: Math.sign(travel) });
      locked = true;
      travel = 0;
    };
    scroller.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      clearTimeout(quiet);
      scroller.removeEventListener('wheel', onWheel);
    };
  }, [dispatch]);

  const closing = hasClosingSlide(state);
  const atClosing = state.index === state.items.length;
  return (
    <div ref={feedRef} className={sheetOpen ? 'feed feed--sheet-open' : 'feed'}>
      <div
        ref={scrollerRef}
        className="feed__scroller"
        role="feed"
        aria-busy={state.loading}
        aria-label="Vidéos"
        aria-describedby="feed-hint"
        tabIndex={0}
      >
        {state.items.map((item, i) => (
          <FeedSlide
            key={item.video.id}
            item={item}
            position={i + 1}
            setSize={state.next === null ? total : -1}
            active={i === state.index}
            loaded={isLoaded(state, i)}
            near={isNear(state, i)}
            muted={state.muted}
            paused={state.paused}
            display={state.display}
            commentsOpen={commentsFor === item.video.id}
            onCommentsOpenChange={(open) => setCommentsFor(open ? item.video.id : null)}
            sheetHost={sheetHost}
            dispatch={dispatch}
          />
        ))}
        {closing ? (
          <article
            className="feed-slide feed-slide--closing"
            aria-posinset={total}
            aria-setsize={state.next === null ? total : -1}
            aria-label={state.failed ? MORE_FAILED : END}
            inert={!atClosing}
          >
            {state.failed ? (
              <div className="feed__state" role="alert">
                <p>{MORE_FAILED}</p>
                <button type="button" className="btn btn--primary" onClick={onRetry}>
                  Réessayer
                </button>
              </div>
            ) : (
              <div className="feed__state">
                <p>{END}</p>
                <Link to="/users-with-videos" className="btn btn--primary">
                  Découvrir des membres
                </Link>
              </div>
            )}
          </article>
        ) : null}
      </div>
      {state.loading && state.index >= state.items.length - 1 ? (
        <p className="feed__loading" role="status">
          Chargement...
        </p>
      ) : null}
      <div className="feed__nav">
        <button
          type="button"
          className="feed-control"
          aria-label="Vidéo précédente"
          title="Vidéo précédente"
          disabled={state.index <= 0}
          onClick={() => dispatch({ type: 'step', delta: -1 })}
        >
          <ChevronUpIcon />
        </button>
        <button
          type="button"
          className="feed-control"
          aria-label="Vidéo suivante"
          title="Vidéo suivante"
          // on the last video while more are coming, the move waits for them
          disabled={state.index >= total - 1 && (state.next === null || state.failed)}
          onClick={() => dispatch({ type: 'step', delta: 1 })}
        >
          <ChevronDownIcon />
        </button>
      </div>
      <p id="feed-hint" className="sr-only">
        {HINT}
      </p>
      <div ref={setSheetHost} className="feed__sheet-host" />
    </div>
  );
}
