import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { CoinsPage } from '../coins/LoginNeeded';
import { GiftCatalogue } from './GiftCatalogue';
import { receiverByPseudo, type GiftReceiver } from './api';
import '../coins/coins.css';
import './gifts.css';

const TITLE = 'Catalogue des cadeaux';
/** What the page shows for a receiver given by email: a member's email is never displayed. */
const LINKED_MEMBER = 'le membre de ton lien';

const looksLikeEmail = (value: string) => /^[^@\s]+@[^@\s]+$/.test(value);

/**
 * /catalogue: the product screens, "Gift catalogue". The receiver comes from the `receiver` prop, else from
 * the query (`?receiver=` or `?to=`): a pseudo, as the app's links give it. An email there (the product specification's
 * older links) still names the receiver, but it is taken out of the address bar at once (kept in
 * the history entry's state, so a reload still knows it) and never shown.
 */
export default function CatalogueScreen({ receiver }: { receiver?: GiftReceiver | null }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const fromQuery = params.get('receiver')?.trim() || params.get('to')?.trim() || '';
  const queryEmail = looksLikeEmail(fromQuery) ? fromQuery : null;
  const state = location.state as { receiverEmail?: unknown } | null;
  const stateEmail = typeof state?.receiverEmail === 'string' ? state.receiverEmail : null;

  useEffect(() => {
    if (!queryEmail) return;
    const rest = new URLSearchParams(params);
    rest.delete('receiver');
    rest.delete('to');
    const search = rest.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '' },
      { replace: true, state: { receiverEmail: queryEmail } },
    );
  }, [queryEmail, params, location.pathname, navigate]);

  const email = queryEmail ?? stateEmail;
  const to: GiftReceiver | null =
    receiver ?? (email ? { email, label: LINKED_MEMBER } : fromQuery ? receiverByPseudo(fromQuery) : null);
  return (
    <CoinsPage titleId="catalogue-title" title={TITLE}>
      {/* no receiver in the link: the member picks one among those they follow */}
      <GiftCatalogue receiver={to} pickReceiver />
    </CoinsPage>
  );
}
