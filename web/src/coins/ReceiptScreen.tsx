import { Link, useParams } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { LoginNeeded } from './LoginNeeded';
import { PurchaseReceipt, RECEIPT_TITLE } from './PurchaseReceipt';
import './coins.css';

/** /coins/recu/:id: a purchase's receipt again, from its line of the history. */
export default function ReceiptScreen() {
  const { user } = useCurrentUser();
  const txId = Number(useParams().id);
  return (
    <section className="page coins" aria-label={RECEIPT_TITLE}>
      <title>{`${RECEIPT_TITLE} · EVO`}</title>
      {user ? (
        <PurchaseReceipt
          txId={Number.isSafeInteger(txId) ? txId : -1}
          heading="h1"
          actions={<Link to="/packs">Boutique</Link>}
        />
      ) : (
        <LoginNeeded />
      )}
    </section>
  );
}
