import { useSearchParams } from 'react-router-dom';
import { GiftCatalogue } from './GiftCatalogue';
import '../coins/coins.css';
import './gifts.css';

const TITLE = 'Catalogue des cadeaux';

/**
 * /catalogue: SPEC.md §2 "Gift catalogue". The receiver comes from the `receiver` prop, else
 * from the query (`?receiver=` or `?to=`).
 */
export default function CatalogueScreen({ receiver }: { receiver?: string | null }) {
  const [params] = useSearchParams();
  const to = receiver ?? (params.get('receiver')?.trim() || params.get('to')?.trim() || null);
  return (
    <section className="page coins" aria-labelledby="catalogue-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="coins__header">
        <h1 id="catalogue-title">{TITLE}</h1>
      </header>
      <GiftCatalogue receiver={to} />
    </section>
  );
}
