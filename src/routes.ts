/** Non-GraphQL HTTP routes of the service (file downloads, the web client). */
import type { App } from './app.js';
import type { RouteHandler } from './server.js';

export function appRoutes(_app: App): RouteHandler[] {
  return [];
}
