import { campaignName, lineTypeTitle, mailingName, selectionName } from '../shell/crumb-names';
import type { AppRoute } from '../shell/crumbs';
import { lazyScreen } from '../shell/lazy-screen';

const CountPage = lazyScreen(() => import('../features/counts/count-page'), 'CountPage');
const CampaignFormPage = lazyScreen(() => import('../features/campaigns/campaign-form'), 'CampaignFormPage');
const CampaignListPage = lazyScreen(() => import('../features/campaigns/campaign-list'), 'CampaignListPage');
const ExportColumnFormPage = lazyScreen(
  () => import('../features/export-columns/export-column-form'),
  'ExportColumnFormPage',
);
const ExportColumnListPage = lazyScreen(
  () => import('../features/export-columns/export-column-list'),
  'ExportColumnListPage',
);
const InterestTypeFormPage = lazyScreen(
  () => import('../features/interest-types/interest-type-form'),
  'InterestTypeFormPage',
);
const InterestTypeListPage = lazyScreen(
  () => import('../features/interest-types/interest-type-list'),
  'InterestTypeListPage',
);
const MailingCopyPage = lazyScreen(() => import('../features/mailings/mailing-copy'), 'MailingCopyPage');
const MailingFormPage = lazyScreen(() => import('../features/mailings/mailing-form'), 'MailingFormPage');
const MailingListPage = lazyScreen(() => import('../features/mailings/mailing-list'), 'MailingListPage');
const PressurePage = lazyScreen(() => import('../features/mailings/pressure-page'), 'PressurePage');
const ReportPage = lazyScreen(() => import('../features/reports/report-page'), 'ReportPage');
const LineEditorRedirect = lazyScreen(
  () => import('../features/selections/line-editor-drawer'),
  'LineEditorRedirect',
);
const MailingSelectionsPage = lazyScreen(
  () => import('../features/selections/mailing-selections-page'),
  'MailingSelectionsPage',
);
const SelectionBuilderPage = lazyScreen(
  () => import('../features/selections/selection-builder-page'),
  'SelectionBuilderPage',
);
const SettingsPage = lazyScreen(() => import('../features/settings/settings-form'), 'SettingsPage');
const TestPersonPage = lazyScreen(() => import('../features/settings/test-person-form'), 'TestPersonPage');
const TaskListPage = lazyScreen(() => import('../features/tasks/task-list'), 'TaskListPage');

/** The campaigns, their mailings and selections, the builder, counts and the Campagnes menu (spec 001 §2). */
export const campaignRoutes: AppRoute[] = [
  {
    path: '/campaigns',
    element: <CampaignListPage />,
    title: 'Campagnes',
    menu: { section: 'Campagnes', order: 1 },
  },
  { path: '/campaigns/new', element: <CampaignFormPage />, title: 'Nieuwe campagne', parent: '/campaigns' },
  // A campaign's crumb (its name) opens its mailings, as its name in the campaign list does.
  {
    path: '/campaigns/:campaignId',
    to: '/campaigns/:campaignId/mailings',
    title: campaignName(),
    parent: '/campaigns',
  },
  {
    path: '/campaigns/:campaignId/edit',
    element: <CampaignFormPage />,
    title: 'Bewerken',
    parent: '/campaigns/:campaignId',
  },
  {
    path: '/campaigns/:campaignId/mailings',
    element: <MailingListPage />,
    title: 'Verzendingen',
    parent: '/campaigns/:campaignId',
  },
  {
    path: '/campaigns/:campaignId/mailings/new',
    element: <MailingFormPage />,
    title: 'Nieuwe mailing',
    parent: '/campaigns/:campaignId/mailings',
  },
  // A mailing's crumb (its name) opens its edit screen.
  {
    path: '/campaigns/:campaignId/mailings/:mailingId',
    to: '/campaigns/:campaignId/mailings/:mailingId/edit',
    title: mailingName(),
    parent: '/campaigns/:campaignId/mailings',
  },
  {
    path: '/campaigns/:campaignId/mailings/:mailingId/edit',
    element: <MailingFormPage />,
    title: 'Bewerken',
    parent: '/campaigns/:campaignId/mailings/:mailingId',
  },
  {
    path: '/campaigns/:campaignId/mailings/:mailingId/copy',
    element: <MailingCopyPage />,
    title: 'Kopiëren',
    parent: '/campaigns/:campaignId/mailings/:mailingId',
  },
  {
    path: '/campaigns/:campaignId/mailings/:mailingId/selections',
    element: <MailingSelectionsPage />,
    title: 'Selecties',
    parent: '/campaigns/:campaignId/mailings/:mailingId',
  },
  // /selection-builder/{campaign?}/{mailing?}/{selection?}: one route per depth, each a crumb.
  {
    path: '/selection-builder',
    element: <SelectionBuilderPage />,
    screen: 'selection-builder',
    title: 'Doelgroep selecteren',
    menu: { section: 'Campagnes', order: 2 },
  },
  {
    path: '/selection-builder/:campaign',
    element: <SelectionBuilderPage />,
    screen: 'selection-builder',
    title: campaignName('campaign'),
    parent: '/selection-builder',
  },
  {
    path: '/selection-builder/:campaign/:mailing',
    element: <SelectionBuilderPage />,
    screen: 'selection-builder',
    title: mailingName('campaign', 'mailing'),
    parent: '/selection-builder/:campaign',
  },
  {
    path: '/selection-builder/:campaign/:mailing/:selection',
    element: <SelectionBuilderPage />,
    screen: 'selection-builder',
    title: selectionName,
    parent: '/selection-builder/:campaign/:mailing',
  },
  // The line editor is a drawer over the builder: these paths open the builder with it open.
  {
    path: '/selection-builder/add-line',
    element: <LineEditorRedirect />,
    title: 'Regel toevoegen',
    parent: '/selection-builder',
  },
  {
    path: '/selection-builder/add-line/:type',
    element: <LineEditorRedirect />,
    title: lineTypeTitle,
    parent: '/selection-builder/add-line',
  },
  { path: '/counts', element: <CountPage />, title: 'Tellingen', menu: { section: 'Campagnes', order: 3 } },
  {
    path: '/interest-types',
    element: <InterestTypeListPage />,
    title: 'Interesse types',
    menu: { section: 'Campagnes', order: 4 },
  },
  {
    path: '/interest-types/new',
    element: <InterestTypeFormPage />,
    title: 'Nieuwe klikinteresse',
    parent: '/interest-types',
  },
  { path: '/tasks', element: <TaskListPage />, title: 'Taken', menu: { section: 'Campagnes', order: 5 } },
  {
    path: '/csv-columns',
    element: <ExportColumnListPage />,
    title: 'Export kolommen',
    menu: { section: 'Campagnes', order: 6 },
  },
  {
    path: '/csv-columns/new',
    element: <ExportColumnFormPage />,
    title: 'Nieuwe kolom',
    parent: '/csv-columns',
  },
  {
    path: '/pressure',
    element: <PressurePage />,
    title: 'Maildruk',
    menu: { section: 'Campagnes', order: 7 },
  },
  {
    path: '/reports',
    element: <ReportPage />,
    title: 'Rapportages',
    menu: { section: 'Campagnes', order: 7.5 },
  },
  {
    path: '/settings',
    element: <SettingsPage />,
    title: 'Instellingen',
    menu: { section: 'Campagnes', order: 8 },
  },
  { path: '/settings/testperson', element: <TestPersonPage />, title: 'Testpersoon', parent: '/settings' },
];
