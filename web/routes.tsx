import { campaignRoutes } from './route-sections/campaigns';
import { enrichmentRoutes } from './route-sections/enrichment';
import { partnerRoutes } from './route-sections/partners';
import { uploadRoutes } from './route-sections/uploads';
import { userRoutes } from './route-sections/users';
import type { AppRoute } from './shell/crumbs';

// Each screen is its own chunk, loaded when its route is first shown: the login page and the
// shell load none of them (web/bundle.test.ts checks it on the build).

/**
 * Every screen's route, and the one source of the breadcrumbs and the sidebar (docs/decisions.md,
 * Screens and navigation): each route names its title (or how to load its name), its parent route
 * and, for a sidebar link, its menu place. A feature adds its screens to its menu section's file in
 * web/route-sections/; unknown paths show the 404 page. web/routes.test.ts checks every parent
 * exists and every crumb leads to a screen.
 */
export const appRoutes: AppRoute[] = [
  ...partnerRoutes,
  ...campaignRoutes,
  ...userRoutes,
  ...uploadRoutes,
  ...enrichmentRoutes,
];
