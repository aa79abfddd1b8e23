import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useToast } from '../shell/toast';
import { answerReport, REPORT_STATUSES, setVideoVisibility, type Report, type VideoVisibility } from './api';
import { formatDateTime } from './format';
import { ReportVideoPreview } from './ReportVideoPreview';

/** Status labels and colours (the product states and transitions, "Report status"). */
const STATUS: Record<string, { label: string; tone: 'warning' | 'primary' | 'success' }> = {
  en_attente: { label: 'En attente', tone: 'warning' },
  en_cours: { label: 'En cours', tone: 'primary' },
  ferme: { label: 'Traitée', tone: 'success' },
};
const UNKNOWN_STATUS = 'Inconnu';

/** Sanction messages offered to admins (the product business constants), sent to the video author only. */
export const SANCTIONS = [
  'Votre vidéo a été restreinte pour non-conformité',
  'Votre vidéo a été effacée : non-respect des consignes communautaires',
  'Veuillez modifier votre vidéo pour éviter une restriction',
] as const;
const NO_MESSAGE = 'Aucun message';

const VISIBILITY_ACTIONS: ReadonlyArray<{ status: VideoVisibility; label: string }> = [
  { status: 'masquée', label: 'Masquer' },
  { status: 'publique', label: 'Rendre publique' },
  { status: 'supprimée', label: 'Supprimer' },
];

const UNKNOWN_PERSON = 'inconnu';
const NO_REASON = 'Non spécifié';
const UNTITLED = 'Sans titre';
const REPLY_SENT = 'Réponse envoyée ✅';
const videoUpdated = (status: VideoVisibility) => `Vidéo mise à jour : ${status}`;
const alreadyLabel = (status: string | undefined) => `La vidéo est déjà ${status ?? ''}`.trim();

export function ReportStatusBadge({ status }: { status: string }) {
  const known = STATUS[status];
  return (
    <span className={`status-badge status-badge--${known?.tone ?? 'unknown'}`}>{known?.label ?? UNKNOWN_STATUS}</span>
  );
}

interface ReportCardProps {
  report: Report;
  /** Reload the list (after a visibility change or a reply). */
  onChanged: () => void;
}

/** One report of /admin/reports. Failures of its calls are logged to the console only (the product error catalogue). */
export function ReportCard({ report, onChanged }: ReportCardProps) {
  const toast = useToast();
  const id = useId();
  const title = report.video_title.trim() || UNTITLED;
  const [status, setStatus] = useState<string>(STATUS[report.status] ? report.status : 'en_attente');
  const [sanction, setSanction] = useState<string>(
    SANCTIONS.find((message) => message === report.admin_response) ?? '',
  );
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  // the visibility the video has now: the server's, then the one this card just set (the list
  // reloads from a read model that may not have caught up yet)
  const [visibility, setVisibility] = useState<string | undefined>(report.video_status ?? undefined);
  const [seenStatus, setSeenStatus] = useState(report.video_status);
  if (seenStatus !== report.video_status) {
    setSeenStatus(report.video_status);
    setVisibility(report.video_status ?? undefined);
  }

  const changeVisibility = async (next: VideoVisibility) => {
    setBusy(true);
    try {
      // the chosen sanction message is the decision's reason (SPEC's matching one when none is chosen)
      await setVideoVisibility(report.video_id, next, next === 'publique' ? undefined : sanction);
      setVisibility(next);
      toast.success(videoUpdated(next));
      onChanged();
    } catch (err) {
      console.error('Mise à jour de la visibilité impossible', err);
    } finally {
      setBusy(false);
    }
  };

  const reply = async () => {
    setBusy(true);
    try {
      await answerReport(report.id, status, sanction);
      toast.success(REPLY_SENT);
      onChanged();
    } catch (err) {
      console.error('Envoi de la réponse impossible', err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="report card" aria-labelledby={`${id}-title`} aria-busy={busy}>
      <header className="report__header">
        <h2 id={`${id}-title`} className="report__title">
          <Link to={`/video/${report.video_id}`}>{title}</Link>
        </h2>
        <ReportStatusBadge status={report.status} />
      </header>

      <div className="report__preview" id={`${id}-preview`}>
        {preview ? <ReportVideoPreview videoId={report.video_id} title={title} /> : null}
        <button
          type="button"
          className="btn btn--secondary btn--small"
          aria-expanded={preview}
          aria-controls={`${id}-preview`}
          onClick={() => setPreview((shown) => !shown)}
        >
          {preview ? 'Fermer l’aperçu' : 'Voir la vidéo ici'}
        </button>
      </div>

      <dl className="report__meta">
        <div>
          <dt>Date</dt>
          <dd>{formatDateTime(report.created_at)}</dd>
        </div>
        <div>
          <dt>Signalé par</dt>
          <dd>{report.signalant ?? UNKNOWN_PERSON}</dd>
        </div>
        <div>
          <dt>Auteur de la vidéo</dt>
          <dd>{report.auteur ?? UNKNOWN_PERSON}</dd>
        </div>
        {visibility ? (
          <div>
            <dt>Visibilité</dt>
            <dd>{visibility}</dd>
          </div>
        ) : null}
        <div className="report__reason">
          <dt>Raison</dt>
          <dd>{report.reason ?? NO_REASON}</dd>
        </div>
        {report.admin_response ? (
          <div className="report__reason">
            <dt>Dernière réponse</dt>
            <dd>{report.admin_response}</dd>
          </div>
        ) : null}
      </dl>

      <div className="report__controls">
        <div className="field">
          <label htmlFor={`${id}-status`}>Statut</label>
          <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value)}>
            {REPORT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS[value].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-sanction`}>Message à l'auteur</label>
          <select id={`${id}-sanction`} value={sanction} onChange={(event) => setSanction(event.target.value)}>
            <option value="">{NO_MESSAGE}</option>
            {SANCTIONS.map((message) => (
              <option key={message} value={message}>
                {message}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="report__actions">
        <div className="report__visibility" role="group" aria-label={`Visibilité de la vidéo « ${title} »`}>
          {VISIBILITY_ACTIONS.map((action) => {
            // the video's current visibility is not offered again (a deleted one offers nothing)
            const current = visibility === action.status || visibility === 'supprimée';
            return (
              <button
                key={action.status}
                type="button"
                className={
                  action.status === 'supprimée' ? 'btn btn--small btn--danger' : 'btn btn--small btn--secondary'
                }
                disabled={busy || current}
                title={current ? alreadyLabel(visibility) : undefined}
                onClick={() => void changeVisibility(action.status)}
              >
                {action.label}
              </button>
            );
          })}
        </div>
        <button type="button" className="btn btn--primary btn--small" disabled={busy} onClick={() => void reply()}>
          Envoyer la réponse
        </button>
      </div>
    </article>
  );
}
