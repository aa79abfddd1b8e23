import { Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { SessionProvider } from '../identity/SessionProvider';
import { ConfirmProvider } from './confirm';
import { FirstScreenShown } from './firstScreen';
import { Layout } from './Layout';
import { Loading } from './Loading';
import { LiveUpdates, ServerState } from './ServerState';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { BARE_ROUTES, LAYOUT_ROUTES, NotFoundScreen } from './routes';
import { useSocketLifecycle } from './socket';
import { ToastProvider } from './toast';

function SocketLifecycle() {
  useSocketLifecycle();
  return null;
}

export function App() {
  return (
    <BrowserRouter>
      <ServerState>
        <ToastProvider>
          <ConfirmProvider>
            <SessionProvider>
              <SocketLifecycle />
              <LiveUpdates />
              <Routes>
                {BARE_ROUTES.map(({ path, Screen }) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <RouteErrorBoundary>
                        <Suspense fallback={<Loading />}>
                          <Screen />
                          <FirstScreenShown />
                        </Suspense>
                      </RouteErrorBoundary>
                    }
                  />
                ))}
                <Route element={<Layout />}>
                  {LAYOUT_ROUTES.map(({ path, Screen }) => (
                    <Route key={path} path={path} element={<Screen />} />
                  ))}
                  <Route path="*" element={<NotFoundScreen />} />
                </Route>
              </Routes>
            </SessionProvider>
          </ConfirmProvider>
        </ToastProvider>
      </ServerState>
    </BrowserRouter>
  );
}
