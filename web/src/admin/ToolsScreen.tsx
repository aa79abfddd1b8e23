import { useToast } from '../shell/toast';
import { AdminPage, ADMIN_CRUMB } from './AdminPage';
import { RebuildCard } from './RebuildCard';
import { ProjectionsHealthCard } from './ProjectionsHealthCard';
import { BroomIcon, BugIcon, DatabaseIcon } from '../shell/ui/icons';

const TITLE = 'Outils';
const NOT_ACTIVE = 'Fonction non encore active';
const SOON = 'Bientôt disponible';

const LATER = [
  {
    Icon: DatabaseIcon,
    title: 'Exporter la base de données',
    text: 'Télécharger une copie des données de la plateforme.',
  },
  {
    Icon: BugIcon,
    title: 'Débogage / journaux',
    text: 'Consulter les journaux techniques du serveur.',
  },
] as const;

/** /admin/tools (the product screens): clear cache (not active yet), two tools to come, the projections' state (resume a stopped one) and their rebuild. */
export default function ToolsScreen() {
  const toast = useToast();
  return (
    <AdminPage title={TITLE} crumbs={[ADMIN_CRUMB]}>
      <ul className="tool-grid">
        <li>
          <article className="tool-card card" aria-labelledby="tool-cache">
            <h2 id="tool-cache" className="tool-card__title">
              <BroomIcon className="tool-card__icon" />
              Vider le cache
            </h2>
            <p className="tool-card__text">Effacer les données mises en cache par le serveur.</p>
            <button type="button" className="btn btn--secondary" onClick={() => toast.info(NOT_ACTIVE)}>
              Vider le cache
            </button>
          </article>
        </li>
        {LATER.map((tool, index) => (
          <li key={tool.title}>
            <article className="tool-card tool-card--soon card" aria-labelledby={`tool-later-${index}`}>
              <h2 id={`tool-later-${index}`} className="tool-card__title">
                <tool.Icon className="tool-card__icon" />
                {tool.title}
              </h2>
              <span id={`tool-later-${index}-soon`} className="soon-badge">
                {SOON}
              </span>
              <p className="tool-card__text">{tool.text}</p>
              <button
                type="button"
                className="btn btn--secondary"
                disabled
                aria-describedby={`tool-later-${index}-soon`}
              >
                {tool.title}
              </button>
            </article>
          </li>
        ))}
        <li className="tool-grid__wide">
          <ProjectionsHealthCard />
        </li>
        <li className="tool-grid__wide">
          <RebuildCard />
        </li>
      </ul>
    </AdminPage>
  );
}
