import ComingSoon from './ComingSoon';
import { PLACEHOLDERS, type PlaceholderId } from './catalog';

/** A route's placeholder, looked up by id (see catalog.ts). */
export default function PlaceholderScreen({ id }: { id: PlaceholderId }) {
  const { title, description } = PLACEHOLDERS[id];
  return <ComingSoon title={title} description={description} />;
}
