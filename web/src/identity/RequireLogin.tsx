import type { ComponentType } from 'react';
import { Navigate, useLocation, type Location } from 'react-router-dom';
import { loginPathFor } from './returnPath';
import { useCurrentUser } from './sessionContext';

/**
 * A screen for members only: a visitor is asked to log in first (before filling any form), and
 * comes back to this very page afterwards.
 */
export function membersOnly(Screen: ComponentType): ComponentType {
  function MembersOnly() {
    const { isLoggedIn } = useCurrentUser();
    const location = useLocation();
    if (!isLoggedIn) {
      // A member who leaves on purpose (logging out, deleting their account) is sent elsewhere in
      // the same step. The router shows the new address in a transition, after the logged-out
      // render of this screen: redirecting from here would override where they were sent.
      if (navigationUnderWay(location)) return null;
      return <Navigate to={loginPathFor(location)} replace />;
    }
    return <Screen />;
  }
  MembersOnly.displayName = `MembersOnly(${Screen.displayName ?? Screen.name ?? 'Screen'})`;
  return MembersOnly;
}

/** The address bar already shows another page than the one being rendered. */
function navigationUnderWay(rendered: Location): boolean {
  const { pathname, search } = window.location;
  return pathname !== rendered.pathname || search !== rendered.search;
}
