import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/** Catches a screen that fails to load or render (e.g. a chunk missing after a deploy). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Écran en erreur', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="page page--center" aria-labelledby="route-error-title">
        <h1 id="route-error-title">Une erreur est survenue</h1>
        <p>Cette page n'a pas pu s'afficher. Vérifie ta connexion puis recharge la page.</p>
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Recharger la page
        </button>
      </section>
    );
  }
}
