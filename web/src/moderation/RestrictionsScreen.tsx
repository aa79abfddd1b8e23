import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  RESTRICTION_SCOPE_NAMES,
  moderationRoutes,
  type AdminDecisionView,
  type RestrictionScopeName,
} from '@evo/contracts';
import { errorMessage } from '../api/http';
import { refreshRoute, routeQuery } from '../api/queries';
import { QueryState } from '../shell/ui/QueryState';
import { AdminPage } from '../admin/AdminPage';
import { useToast } from '../shell/toast';
import { useConfirm } from '../shell/confirm';
import { liftRestriction, restrictMember, useModerationWrite } from './api';
import { APPEAL_STATUS_LABELS, SCOPE_LABELS, formatWhen, untilText } from './labels';
import './moderation.css';
import { FormError, TextAreaField } from '../shell/ui/Form';

const TITLE = 'Restrictions';
const INTRO =
  'Empêcher un membre de publier, de commenter ou d’écrire des messages privés, pour une durée ou jusqu’à levée, avec un motif qu’il verra.';
const EMPTY = 'Aucune restriction en cours.';

const DURATIONS = [
  { value: '24', label: '24 heures' },
  { value: '72', label: '3 jours' },
  { value: '168', label: '7 jours' },
  { value: '720', label: '30 jours' },
  { value: 'hours', label: 'Autre durée (en heures)' },
  { value: 'date', label: 'Jusqu’à une date' },
  { value: 'lifted', label: 'Jusqu’à levée' },
] as const;

function RestrictForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [scopes, setScopes] = useState<RestrictionScopeName[]>(['comment']);
  const [duration, setDuration] = useState<string>('24');
  const [hours, setHours] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [reason, setReason] = useState('');
  const { send, busy, error } = useModerationWrite(restrictMember, 'Restriction impossible', () => {
    setEmail('');
    setReason('');
    onDone();
  });

  const toggle = (scope: RestrictionScopeName) =>
    setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const end = duration === 'date' && endsAt ? new Date(endsAt) : null;
    send({
      email,
      scopes,
      duration_hours:
        duration === 'hours'
          ? hours.trim() === ''
            ? null
            : Number(hours)
          : /^\d+$/.test(duration)
            ? Number(duration)
            : null,
      ends_at: end && !Number.isNaN(end.getTime()) ? end.toISOString() : duration === 'date' ? endsAt || null : null,
      reason,
    });
  };

  return (
    <form className="card restriction-form" onSubmit={submit} aria-busy={busy} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="decision__title">
        Restreindre un membre
      </h2>
      <div className="field">
        <label htmlFor={`${id}-email`}>Adresse e-mail du membre</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
      </div>
      <fieldset>
        <legend>Interdire de</legend>
        {RESTRICTION_SCOPE_NAMES.map((scope) => (
          <label key={scope} className="restriction-form__check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
            {SCOPE_LABELS[scope]}
          </label>
        ))}
      </fieldset>
      <div className="restriction-form__row">
        <div className="field">
          <label htmlFor={`${id}-duration`}>Durée</label>
          <select id={`${id}-duration`} value={duration} onChange={(e) => setDuration(e.target.value)}>
            {DURATIONS.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        {duration === 'hours' ? (
          <div className="field">
            <label htmlFor={`${id}-hours`}>Nombre d’heures</label>
            <input id={`${id}-hours`} type="number" step="1" value={hours} onChange={(e) => setHours(e.target.value)} />
          </div>
        ) : null}
        {duration === 'date' ? (
          <div className="field">
            <label htmlFor={`${id}-end`}>Fin de la restriction</label>
            <input id={`${id}-end`} type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />
          </div>
        ) : null}
      </div>
      <TextAreaField
        id={`${id}-reason`}
        label="Motif (montré au membre)"
        rows={2}
        maxLength={500}
        value={reason}
        onValue={setReason}
      />
      {error ? <FormError message={error} /> : null}
      <div className="appeal-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Restreindre
        </button>
      </div>
    </form>
  );
}

function RestrictionCard({ item, onLifted }: { item: AdminDecisionView; onLifted: () => void }) {
  const toast = useToast();
  const confirm = useConfirm();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const lift = async () => {
    if (!(await confirm(`Lever la restriction de @${item.subject_pseudo} ?`))) return;
    setBusy(true);
    try {
      toast.success((await liftRestriction(item.id)).message);
      onLifted();
    } catch (err) {
      toast.error(errorMessage(err) ?? 'Levée impossible');
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="card decision" aria-labelledby={`${id}-title`} aria-busy={busy} data-restriction={item.id}>
      <header className="decision__head">
        <h2 id={`${id}-title`} className="decision__title">
          @{item.subject_pseudo}
        </h2>
        <span className="decision__badge decision__badge--on">{untilText(item.ends_at)}</span>
      </header>
      <p className="admin-decision__subject">{item.subject_email}</p>
      <dl className="decision__meta">
        <div>
          <dt>Interdit de</dt>
          <dd>{item.scopes.map((s) => SCOPE_LABELS[s].toLowerCase()).join(', ')}</dd>
        </div>
        <div>
          <dt>Motif</dt>
          <dd>{item.reason}</dd>
        </div>
        <div>
          <dt>Prise par</dt>
          <dd>
            @{item.decided_by}, le {formatWhen(item.decided_at)}
          </dd>
        </div>
        {item.appeal ? (
          <div>
            <dt>Contestation</dt>
            <dd>{APPEAL_STATUS_LABELS[item.appeal.status]}</dd>
          </div>
        ) : null}
      </dl>
      <div className="appeal-form__actions">
        <button type="button" className="btn btn--secondary btn--small" disabled={busy} onClick={() => void lift()}>
          Lever la restriction
        </button>
      </div>
    </article>
  );
}

/** /admin/restrictions: restrict a member, and the restrictions holding now. */
export default function RestrictionsScreen() {
  const client = useQueryClient();
  const loaded = useQuery({
    ...routeQuery(moderationRoutes.restrictions, {}),
    select: (answer) => answer.restrictions,
  });
  const refresh = () => void refreshRoute(client, moderationRoutes.restrictions);
  return (
    <AdminPage title={TITLE} intro={INTRO}>
      <RestrictForm onDone={refresh} />
      <h2 className="decision__title">Restrictions en cours</h2>
      <QueryState query={loaded} failed={(err) => errorMessage(err) ?? 'Chargement impossible'} empty={EMPTY}>
        {(items) => (
          <div className="decision-list">
            {items.map((item) => (
              <RestrictionCard key={item.id} item={item} onLifted={refresh} />
            ))}
          </div>
        )}
      </QueryState>
    </AdminPage>
  );
}
