import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { fetchWallet, type Wallet } from './api';

/**
 * The current member's balance, shared by every screen and section that shows it (one small
 * store for the tab), kept live by the server's 'wallet:changed' push
 * ({ coins_balance, coins_withdrawable, gifts_unclaimed, position }) and by the answers of the member's own coin
 * commands. Pushes older than the last one applied are ignored (by log position); a GET that
 * started before a newer push or answer is dropped.
 */

interface WalletState {
  email: string | null;
  wallet: Wallet | null;
  error: unknown;
  loading: boolean;
}

/** A command's answer, a 'wallet:changed' push (with its position), or part of one. */
export type WalletUpdate = Partial<Wallet> & { position?: string };

let state: WalletState = { email: null, wallet: null, error: undefined, loading: false };
let position: bigint | null = null;
/** bumped by every push or answer applied: an older GET answer is then stale */
let version = 0;
let inFlight: { email: string; promise: Promise<void> } | null = null;
const listeners = new Set<() => void>();

function set(next: WalletState) {
  state = next;
  for (const listener of listeners) listener();
}

function forEmail(email: string): WalletState {
  if (state.email === email) return state;
  position = null;
  return { email, wallet: null, error: undefined, loading: false };
}

/** Loads the balance again (one request at a time per member). */
export function refreshWallet(email: string): Promise<void> {
  if (inFlight?.email === email) return inFlight.promise;
  const started = version;
  set({ ...forEmail(email), loading: true });
  const promise = fetchWallet(email)
    .then((wallet) => {
      if (state.email !== email) return;
      // a push or an answer arrived meanwhile: it is at least as new as this answer
      set({
        email,
        wallet: version === started || !state.wallet ? wallet : state.wallet,
        error: undefined,
        loading: false,
      });
    })
    .catch((error: unknown) => {
      if (state.email === email) set({ ...state, error, loading: false });
    })
    .finally(() => {
      if (inFlight?.promise === promise) inFlight = null;
    });
  inFlight = { email, promise };
  return promise;
}

/** New balances for the member: from a command answer, or a push (with its position). */
export function applyWallet(email: string, update: WalletUpdate): void {
  const current = forEmail(email);
  if ('position' in update && update.position !== undefined && update.position !== null) {
    try {
      const p = BigInt(String(update.position));
      if (position !== null && p <= position) return;
      position = p;
    } catch {
      // no usable position: apply it anyway
    }
  }
  const { coins_balance: coins, coins_withdrawable: withdrawable, coins_bonus: bonus, gifts_unclaimed: gifts } = update;
  if (coins === undefined && gifts === undefined && withdrawable === undefined && bonus === undefined) return;
  version += 1;
  const base = current.wallet ?? {
    coins_balance: 0,
    coins_withdrawable: 0,
    coins_bonus: 0,
    gifts_unclaimed: 0,
    add_coins_enabled: true,
    // not known until the wallet is fetched ('' : the withdrawal form then states coins only)
    withdrawal_cents_per_100_coins: 0,
    withdrawal_payout: '',
  };
  set({
    ...current,
    wallet: {
      ...base,
      coins_balance: coins ?? base.coins_balance,
      coins_withdrawable: withdrawable ?? base.coins_withdrawable,
      coins_bonus: bonus ?? base.coins_bonus,
      gifts_unclaimed: gifts ?? base.gifts_unclaimed,
    },
    error: undefined,
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => state;
/** The store's current state (tests). */
export const walletSnapshot = snapshot;
const EMPTY: WalletState = { email: null, wallet: null, error: undefined, loading: false };

export interface WalletHandle {
  /** null until loaded (or when logged out) */
  wallet: Wallet | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** apply a coin command's answer (coins_balance, gifts_unclaimed) */
  apply: (answer: WalletUpdate) => void;
}

/** The logged-in member's wallet, loaded on mount and kept live. */
export function useWallet(): WalletHandle {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);

  useEffect(() => {
    if (email) void refreshWallet(email);
  }, [email]);

  useSocketEvent('wallet:changed', (payload) => {
    if (email && payload && typeof payload === 'object') applyWallet(email, payload);
  });

  const reload = useCallback(() => {
    if (email) void refreshWallet(email);
  }, [email]);
  const apply = useCallback(
    (answer: WalletUpdate) => {
      if (email) applyWallet(email, answer);
    },
    [email],
  );

  const mine = email && current.email === email ? current : EMPTY;
  return {
    wallet: mine.wallet,
    error: mine.error,
    loading: mine.loading || (email !== null && current.email !== email),
    reload,
    apply,
  };
}
