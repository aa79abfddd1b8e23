import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { BottomBar } from './BottomBar';
import { FirstScreenShown } from './firstScreen';
import { Loading } from './Loading';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { TopBar } from './TopBar';
import { isAdminPath } from './paths';

/** Common layout of every route except /login and /register. */
export function Layout() {
  const { pathname } = useLocation();
  const light = isAdminPath(pathname);
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  // After a client-side navigation, move focus to the new content (not on first load).
  useEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className={light ? 'layout layout--admin' : 'layout'}>
      <a className="skip-link" href="#contenu">
        Aller au contenu
      </a>
      <TopBar light={light} />
      <main id="contenu" className="layout__main" ref={mainRef} tabIndex={-1}>
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<Loading />}>
            <Outlet />
            <FirstScreenShown />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <BottomBar light={light} />
    </div>
  );
}
