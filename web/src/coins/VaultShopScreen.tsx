import { Shop } from './ShopScreen';

/** /vault/shop: the live shop, then the static eight-pack list (SPEC.md §9). */
export default function VaultShopScreen() {
  return <Shop withStaticList />;
}
