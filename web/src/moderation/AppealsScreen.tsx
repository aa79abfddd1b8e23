import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { moderationRoutes, type AdminDecisionView } from '@evo/contracts';
import { errorMessage } from '../api/http';
import { refreshRoute, routeQuery } from '../api/queries';
import { QueryState } from '../shell/ui/QueryState';
import { AdminPage } from '../admin/AdminPage';
import { answerAppeal, useModerationWrite } from './api';
import { ACTION_LABELS, SCOPE_LABELS, formatWhen, untilText } from './labels';
import './moderation.css';
import { FormError, TextAreaField } from '../shell/ui/Form';

const TITLE = 'Contestations';
const INTRO = 'Les contestations des membres, des plus anciennes aux plus récentes : maintenez ou annulez la décision.';
const EMPTY = 'Aucune contestation en attente.';

function AppealCard({ item, onAnswered }: { item: AdminDecisionView; onAnswered: () => void }) {
  const id = useId();
  const [answer, setAnswer] = useState('');
  const { send, busy, error } = useModerationWrite(
    (outcome: 'maintenue' | 'annulée') => answerAppeal(item.id, outcome, answer),
    'Réponse impossible',
    onAnswered,
  );

  const what =
    item.kind === 'video'
      ? `${ACTION_LABELS[item.action ?? ''] ?? 'Décision'} : « ${item.video_title?.trim() || 'Sans titre'} »`
      : `Restriction : ${item.scopes.map((s) => SCOPE_LABELS[s].toLowerCase()).join(', ')} (${untilText(item.ends_at)})`;

  return (
    <article className="card decision" aria-labelledby={`${id}-title`} aria-busy={busy} data-appeal={item.id}>
      <header className="decision__head">
        <h2 id={`${id}-title`} className="decision__title">
          {item.kind === 'video' && item.video_id ? <Link to={`/video/${item.video_id}`}>{what}</Link> : what}
        </h2>
        <span className="decision__badge">Contestée le {formatWhen(item.appeal!.at)}</span>
      </header>
      <p className="admin-decision__subject">
        Membre : @{item.subject_pseudo} ({item.subject_email})
      </p>
      <dl className="decision__meta">
        <div>
          <dt>Motif de la décision</dt>
          <dd>{item.reason}</dd>
        </div>
        <div>
          <dt>Prise par</dt>
          <dd>
            @{item.decided_by}, le {formatWhen(item.decided_at)}
          </dd>
        </div>
        <div>
          <dt>Toujours en vigueur</dt>
          <dd>{item.in_force ? 'Oui' : 'Non (annulée ou remplacée depuis)'}</dd>
        </div>
      </dl>
      <div className="decision__appeal">
        <p>
          <strong>Contestation</strong> : {item.appeal!.text}
        </p>
      </div>
      <TextAreaField
        id={`${id}-answer`}
        label="Réponse au membre"
        rows={3}
        maxLength={2000}
        value={answer}
        onValue={setAnswer}
      />
      {error ? <FormError message={error} /> : null}
      <div className="appeal-form__actions">
        <button
          type="button"
          className="btn btn--secondary btn--small"
          disabled={busy}
          onClick={() => send('maintenue')}
        >
          Maintenir la décision
        </button>
        <button type="button" className="btn btn--primary btn--small" disabled={busy} onClick={() => send('annulée')}>
          Annuler la décision
        </button>
      </div>
    </article>
  );
}

/** /admin/appeals: the appeals queue, oldest first. */
export default function AppealsScreen() {
  const client = useQueryClient();
  const loaded = useQuery({ ...routeQuery(moderationRoutes.appeals, {}), select: (answer) => answer.appeals });
  const refresh = () => void refreshRoute(client, moderationRoutes.appeals);
  return (
    <AdminPage title={TITLE} intro={INTRO}>
      <QueryState query={loaded} failed={(err) => errorMessage(err) ?? 'Chargement impossible'} empty={EMPTY}>
        {(items) => (
          <div className="decision-list">
            {items.map((item) => (
              <AppealCard key={item.id} item={item} onAnswered={refresh} />
            ))}
          </div>
        )}
      </QueryState>
    </AdminPage>
  );
}
