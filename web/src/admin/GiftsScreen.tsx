import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../api/http';
import { useConfirm } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { AddGiftForm } from './AddGiftForm';
import { AdminPage, AdminSearch, ReloadButton } from './AdminPage';
import { createGift, deleteGift, updateGift, type AdminGift, type GiftInput } from './api';
import { GiftCard } from './GiftCard';
import {
  applyOverride,
  filterGifts,
  isEmptyOverride,
  nextLocalId,
  readOverride,
  withDeletion,
  withUpsert,
  writeOverride,
  EMPTY_OVERRIDE,
  type GiftOverride,
} from './giftCatalog';
import { useAdminGifts } from './hooks';
import { useQueryClient } from '@tanstack/react-query';
import { adminRoutes } from '@evo/contracts';
import { updateRoute } from '../api/queries';

const TITLE = 'Gestion des cadeaux';
const LOCAL_MODE = 'Mode local (sans BDD)';
// said in plain words while the product's default local mode is on (issue 30)
const LOCAL_NOTICE =
  'Attention : vos changements restent dans ce navigateur. Ils ne sont pas enregistrés et les membres ne les voient pas.';
const SAVED_NOTICE = 'Vos changements sont enregistrés et visibles par les membres.';
const NAME_REQUIRED = 'Nom requis';
const DELETE_CONFIRM = 'Supprimer ce cadeau ?';
const API_ERROR = {
  POST: 'Erreur API (POST). Reste en mode local si besoin.',
  PUT: 'Erreur API (PUT). Reste en mode local si besoin.',
  DELETE: 'Erreur API (DELETE). Reste en mode local si besoin.',
} as const;
const loadError = (message: string) => `Erreur: ${message}`;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * /admin/gifts (the product screens, the product states and transitions "Gift editing", the product validation rules, the product business constants). In local mode (the default) adding,
 * editing and deleting only change this screen's list and a sessionStorage override; unchecked,
 * they go to the API.
 */
export default function GiftsScreen() {
  const toast = useToast();
  const confirm = useConfirm();
  const server = useAdminGifts();
  const client = useQueryClient();
  const setGifts = (update: (list: AdminGift[]) => AdminGift[]) => updateRoute(client, adminRoutes.gifts, {}, update);
  const [local, setLocal] = useState(true);
  const [override, setOverride] = useState<GiftOverride>(() => readOverride());
  const [search, setSearch] = useState('');
  const [editingId, setEditingId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const searchId = useId();
  const modeId = useId();

  const gifts = useMemo(
    () => (local ? applyOverride(server.data ?? [], override) : [...(server.data ?? [])].sort((a, b) => a.id - b.id)),
    [local, server.data, override],
  );
  const shown = useMemo(() => filterGifts(gifts, search), [gifts, search]);

  const saveOverride = (next: GiftOverride) => {
    setOverride(next);
    writeOverride(next);
  };

  /** Runs an API write: the SPEC's French error on failure, the server's message as detail. */
  const apiWrite = async (method: keyof typeof API_ERROR, run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      toast.success(done);
      void server.refetch();
      return true;
    } catch (err) {
      console.error(`Cadeaux : ${method} refusé`, err);
      toast.error(API_ERROR[method], { detail: errorMessage(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (input: GiftInput): Promise<boolean> => {
    if (local) {
      const gift: AdminGift = { id: nextLocalId(gifts), ...input, coin_cost: input.price };
      saveOverride(withUpsert(override, gift));
      toast.success(`Cadeau « ${gift.name} » ajouté localement.`);
      return true;
    }
    return apiWrite(
      'POST',
      async () => {
        const gift = await createGift(input);
        setGifts((list) => [...list.filter((g) => g.id !== gift.id), gift]);
      },
      `Cadeau « ${input.name} » ajouté.`,
    );
  };

  const save = async (gift: AdminGift, input: GiftInput): Promise<boolean> => {
    if (local) {
      saveOverride(withUpsert(override, { id: gift.id, ...input, coin_cost: input.price }));
      setEditingId(null);
      toast.success(`Cadeau « ${input.name} » modifié localement.`);
      return true;
    }
    const ok = await apiWrite(
      'PUT',
      async () => {
        const saved = await updateGift(gift.id, input);
        if (saved) setGifts((list) => list.map((g) => (g.id === saved.id ? saved : g)));
      },
      `Cadeau « ${input.name} » modifié.`,
    );
    if (ok) setEditingId(null);
    return ok;
  };

  const remove = async (gift: AdminGift) => {
    if (!(await confirm(DELETE_CONFIRM, { confirmLabel: 'Supprimer', danger: true }))) return;
    if (editingId === gift.id) setEditingId(null);
    if (local) {
      saveOverride(withDeletion(override, gift.id));
      toast.success(`Cadeau « ${gift.name} » supprimé localement.`);
      return;
    }
    await apiWrite(
      'DELETE',
      async () => {
        await deleteGift(gift.id);
        setGifts((list) => list.filter((g) => g.id !== gift.id));
      },
      `Cadeau « ${gift.name} » supprimé.`,
    );
  };

  const forgetLocalChanges = async () => {
    if (
      !(await confirm('Effacer les modifications locales de cette session ?', {
        confirmLabel: 'Effacer',
        danger: true,
      }))
    )
      return;
    saveOverride(EMPTY_OVERRIDE);
    setEditingId(null);
  };

  const nameMissing = () => toast.error(NAME_REQUIRED);

  let grid;
  if (server.error && !server.data) {
    grid = (
      <li className="gift-grid__error" role="alert">
        {loadError(errorText(server.error))}
      </li>
    );
  } else if (!server.data && server.isFetching) {
    grid = (
      <li className="loading" role="status">
        Chargement...
      </li>
    );
  }

  return (
    <AdminPage
      title={TITLE}
      intro="Le catalogue des cadeaux que les membres peuvent offrir (prix en coins)."
      actions={
        <>
          <ReloadButton query={server} />
          <Link to="/packs" className="btn btn--ghost btn--small">
            Packs de coins
          </Link>
        </>
      }
    >
      <div className={local ? 'gift-mode gift-mode--local' : 'gift-mode gift-mode--api'}>
        <div className="gift-mode__switch">
          <input
            id={modeId}
            type="checkbox"
            checked={local}
            aria-describedby={`${modeId}-hint`}
            onChange={(event) => {
              setLocal(event.target.checked);
              setEditingId(null);
            }}
          />
          <label htmlFor={modeId}>{LOCAL_MODE}</label>
        </div>
        <p id={`${modeId}-hint`} className="gift-mode__hint">
          {local ? (
            <>
              <strong>{LOCAL_NOTICE}</strong> Décochez « {LOCAL_MODE} » pour enregistrer vos changements pour de bon.
            </>
          ) : (
            SAVED_NOTICE
          )}
        </p>
        {local && !isEmptyOverride(override) ? (
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void forgetLocalChanges()}>
            Effacer les modifications locales
          </button>
        ) : null}
      </div>

      <AddGiftForm local={local} busy={busy} onAdd={add} onNameMissing={nameMissing} />

      <AdminSearch
        id={searchId}
        label="Rechercher un cadeau"
        placeholder="Nom, prix ou chemin d’image"
        value={search}
        onValue={setSearch}
        count={`Total : ${gifts.length} · Affichés : ${shown.length}`}
      />

      <ul className="grid-list gift-grid" aria-label="Cadeaux du catalogue" aria-busy={server.isFetching}>
        {grid}
        {shown.map((gift) => (
          <li key={gift.id}>
            <GiftCard
              gift={gift}
              editing={editingId === gift.id}
              busy={busy}
              onEdit={() => setEditingId(gift.id)}
              onCancel={() => setEditingId(null)}
              onSave={(input) => save(gift, input)}
              onDelete={() => void remove(gift)}
              onNameMissing={nameMissing}
            />
          </li>
        ))}
        {server.data && shown.length === 0 ? <li className="admin-empty">Aucun cadeau trouvé.</li> : null}
      </ul>
    </AdminPage>
  );
}
