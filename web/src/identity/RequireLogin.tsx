import type { ComponentType } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
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
    if (!isLoggedIn) return <Navigate to={loginPathFor(location)} replace />;
    return <Screen />;
  }
  MembersOnly.displayName = `MembersOnly(${Screen.displayName ?? Screen.name ?? 'Screen'})`;
  return MembersOnly;
}
