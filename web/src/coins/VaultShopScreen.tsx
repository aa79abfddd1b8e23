import { Shop } from './ShopScreen';

/** /vault/shop: the live shop, then the static eight-pack list (the product business constants). */
export default function VaultShopScreen() {
  return <Shop withStaticList />;
}
