/**
 * Calls `onFrame` about every display frame with requestAnimationFrame, and with
 * a timer while the tab is hidden (rAF stops there), so the canvas keeps
 * producing frames for the recording. Returns a stop function.
 */
export function startFrameLoop(onFrame: () => void, hiddenFps = 30): () => void {
  let raf = 0;
  let timer = 0;
  let stopped = false;

  const cancel = () => {
    if (raf) cancelAnimationFrame(raf);
    if (timer) window.clearTimeout(timer);
    raf = 0;
    timer = 0;
  };
  const schedule = () => {
    if (stopped) return;
    if (document.hidden) timer = window.setTimeout(tick, 1000 / hiddenFps);
    else raf = requestAnimationFrame(tick);
  };
  function tick() {
    raf = 0;
    timer = 0;
    if (stopped) return;
    onFrame();
    schedule();
  }
  const onVisibilityChange = () => {
    cancel();
    schedule();
  };

  document.addEventListener('visibilitychange', onVisibilityChange);
  schedule();
  return () => {
    stopped = true;
    cancel();
    document.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
