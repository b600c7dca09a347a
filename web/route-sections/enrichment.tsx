import type { AppRoute } from '../shell/crumbs';
import { lazyScreen } from '../shell/lazy-screen';

const EnrichmentListPage = lazyScreen(
  () => import('../features/enrichment/enrichment-list-page'),
  'EnrichmentListPage',
);
const EnrichmentUploadPage = lazyScreen(
  () => import('../features/enrichment/enrichment-upload-page'),
  'EnrichmentUploadPage',
);

/** The enrichment files (the Verrijking menu, spec 001 §2). */
export const enrichmentRoutes: AppRoute[] = [
  {
    path: '/enrichment/upload',
    element: <EnrichmentUploadPage />,
    title: 'Verrijkingsbestand uploaden',
    parent: '/enrichment',
    menu: { section: 'Verrijking', order: 1 },
  },
  {
    path: '/enrichment',
    element: <EnrichmentListPage />,
    title: 'Verrijkingsbestanden',
    menu: { section: 'Verrijking', order: 2 },
  },
];
