// The public surface of the evaluation sessions resource: the app and the event catalogue use only this.
export { evaluationSessionRoutes } from './routes.js';
export { createEvaluationSessionService, type EvaluationSessionService } from './service.js';
export { SESSION_CANCEL_REASONS, SESSION_KIND, SESSION_SIDES } from './kind.js';
