import {
  campaignName,
  contactName,
  datasetName,
  lineTypeTitle,
  mailingName,
  partnerName,
  rateTypeTitle,
  selectionName,
  testPersonName,
  userName,
} from './shell/crumb-names';
import type { AppRoute } from './shell/crumbs';
import { lazyScreen } from './shell/lazy-screen';

// Each screen is its own chunk, loaded when its route is first shown: the login page and the
// shell load none of them (web/bundle.test.ts checks it on the build).
const BlacklistDomainListPage = lazyScreen(
  () => import('./features/blacklists/domain-list'),
  'BlacklistDomainListPage',
);
const BlacklistPage = lazyScreen(() => import('./features/blacklists/blacklist-page'), 'BlacklistPage');
const BlacklistUploadPage = lazyScreen(
  () => import('./features/blacklists/blacklist-upload-page'),
  'BlacklistUploadPage',
);
const PartnerBlacklistPage = lazyScreen(
  () => import('./features/blacklists/partner-blacklist-page'),
  'PartnerBlacklistPage',
);
const DnsCheckPage = lazyScreen(() => import('./features/dns-check/dns-check-page'), 'DnsCheckPage');
const EnrichmentListPage = lazyScreen(
  () => import('./features/enrichment/enrichment-list-page'),
  'EnrichmentListPage',
);
const EnrichmentUploadPage = lazyScreen(
  () => import('./features/enrichment/enrichment-upload-page'),
  'EnrichmentUploadPage',
);
const CountPage = lazyScreen(() => import('./features/counts/count-page'), 'CountPage');
const CampaignFormPage = lazyScreen(() => import('./features/campaigns/campaign-form'), 'CampaignFormPage');
const CampaignListPage = lazyScreen(() => import('./features/campaigns/campaign-list'), 'CampaignListPage');
const DatasetFormPage = lazyScreen(() => import('./features/datasets/dataset-form'), 'DatasetFormPage');
const DatasetListPage = lazyScreen(() => import('./features/datasets/dataset-list'), 'DatasetListPage');
const RateFormPage = lazyScreen(() => import('./features/datasets/rate-form'), 'RateFormPage');
const RateListPage = lazyScreen(() => import('./features/datasets/rate-list'), 'RateListPage');
const TestPersonFormPage = lazyScreen(
  () => import('./features/datasets/testperson-form'),
  'TestPersonFormPage',
);
const TestPersonListPage = lazyScreen(
  () => import('./features/datasets/testperson-list'),
  'TestPersonListPage',
);
const ExportColumnFormPage = lazyScreen(
  () => import('./features/export-columns/export-column-form'),
  'ExportColumnFormPage',
);
const ExportColumnListPage = lazyScreen(
  () => import('./features/export-columns/export-column-list'),
  'ExportColumnListPage',
);
const DeleteAllPage = lazyScreen(() => import('./features/imports/deleteall-page'), 'DeleteAllPage');
const MappingEditorPage = lazyScreen(() => import('./features/imports/mapping-editor'), 'MappingEditorPage');
const UploadPage = lazyScreen(() => import('./features/imports/upload-page'), 'UploadPage');
const ValueMappingEditorPage = lazyScreen(
  () => import('./features/imports/value-mapping-editor'),
  'ValueMappingEditorPage',
);
const ValueMappedFieldPage = lazyScreen(
  () => import('./features/imports/valuemapped-pages'),
  'ValueMappedFieldPage',
);
const ValueMappedListPage = lazyScreen(
  () => import('./features/imports/valuemapped-pages'),
  'ValueMappedListPage',
);
const InterestTypeFormPage = lazyScreen(
  () => import('./features/interest-types/interest-type-form'),
  'InterestTypeFormPage',
);
const InterestTypeListPage = lazyScreen(
  () => import('./features/interest-types/interest-type-list'),
  'InterestTypeListPage',
);
const LabelFormPage = lazyScreen(() => import('./features/labels/label-form'), 'LabelFormPage');
const LabelListPage = lazyScreen(() => import('./features/labels/label-list'), 'LabelListPage');
const MailingCopyPage = lazyScreen(() => import('./features/mailings/mailing-copy'), 'MailingCopyPage');
const MailingFormPage = lazyScreen(() => import('./features/mailings/mailing-form'), 'MailingFormPage');
const MailingListPage = lazyScreen(() => import('./features/mailings/mailing-list'), 'MailingListPage');
const PressurePage = lazyScreen(() => import('./features/mailings/pressure-page'), 'PressurePage');
const ContactFormPage = lazyScreen(() => import('./features/partners/contact-form'), 'ContactFormPage');
const ContactListPage = lazyScreen(() => import('./features/partners/contact-list'), 'ContactListPage');
const PartnerFormPage = lazyScreen(() => import('./features/partners/partner-form'), 'PartnerFormPage');
const PartnerListPage = lazyScreen(() => import('./features/partners/partner-list'), 'PartnerListPage');
const LineEditorPage = lazyScreen(() => import('./features/selections/line-editor-page'), 'LineEditorPage');
const MailingSelectionsPage = lazyScreen(
  () => import('./features/selections/mailing-selections-page'),
  'MailingSelectionsPage',
);
const SelectionBuilderPage = lazyScreen(
  () => import('./features/selections/selection-builder-page'),
  'SelectionBuilderPage',
);
const SettingsPage = lazyScreen(() => import('./features/settings/settings-form'), 'SettingsPage');
const TestPersonPage = lazyScreen(() => import('./features/settings/test-person-form'), 'TestPersonPage');
const TaskListPage = lazyScreen(() => import('./features/tasks/task-list'), 'TaskListPage');
const UserFormPage = lazyScreen(() => import('./features/users/user-form'), 'UserFormPage');
const UserListPage = lazyScreen(() => import('./features/users/user-list'), 'UserListPage');

/**
 * Every screen's route, and the one source of the breadcrumbs and the sidebar (docs/decisions.md
 * "Route table"): each route names its title (or how to load its name), its parent route and,
 * for a sidebar link, its menu place. A feature adds its screens here; unknown paths show the 404
 * page. web/routes.test.ts checks every parent exists and every crumb leads to a screen.
 */
export const appRoutes: AppRoute[] = [
  // ---- Partners, their contacts, datasets and everything below a dataset (spec 000 §2) ----
  {
    path: '/partners',
    element: <PartnerListPage />,
    title: 'Partners',
    menu: { section: 'Partners', order: 1 },
  },
  {
    path: '/partners/new',
    element: <PartnerFormPage />,
    title: 'Nieuwe partner',
    parent: '/partners',
    menu: { section: 'Partners', order: 2 },
  },
  // A partner has no screen of its own: its crumb (the partner's name) opens its datasets.
  {
    path: '/partners/:partnerId',
    to: '/partners/:partnerId/datasets',
    title: partnerName,
    parent: '/partners',
  },
  {
    path: '/partners/:partnerId/edit',
    element: <PartnerFormPage />,
    title: 'Bewerken',
    parent: '/partners/:partnerId',
  },
  {
    path: '/partners/:partnerId/contacts',
    element: <ContactListPage />,
    title: 'Contactpersonen',
    parent: '/partners/:partnerId',
  },
  {
    path: '/partners/:partnerId/contacts/new',
    element: <ContactFormPage />,
    title: 'Nieuwe contactpersoon',
    parent: '/partners/:partnerId/contacts',
  },
  {
    path: '/partners/:partnerId/contacts/:contactId/edit',
    element: <ContactFormPage />,
    title: contactName,
    parent: '/partners/:partnerId/contacts',
  },
  {
    path: '/partners/:partnerId/blacklist',
    element: <PartnerBlacklistPage />,
    title: 'Blacklist',
    parent: '/partners/:partnerId',
  },
  {
    path: '/partners/:partnerId/datasets',
    element: <DatasetListPage />,
    title: 'Bestanden',
    parent: '/partners/:partnerId',
  },
  {
    path: '/partners/:partnerId/datasets/new',
    element: <DatasetFormPage />,
    title: 'Nieuw bestand',
    parent: '/partners/:partnerId/datasets',
  },
  // A dataset has no screen of its own: its crumb (the dataset's name) opens its edit screen,
  // which links to its commission, participation and test persons (spec 000 §2).
  {
    path: '/partners/:partnerId/datasets/:datasetId',
    to: '/partners/:partnerId/datasets/:datasetId/edit',
    title: datasetName,
    parent: '/partners/:partnerId/datasets',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/edit',
    element: <DatasetFormPage />,
    title: 'Bewerken',
    parent: '/partners/:partnerId/datasets/:datasetId',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/testpersons',
    element: <TestPersonListPage />,
    title: 'Testpersonen',
    parent: '/partners/:partnerId/datasets/:datasetId',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/testpersons/new',
    element: <TestPersonFormPage />,
    title: 'Nieuwe testpersoon',
    parent: '/partners/:partnerId/datasets/:datasetId/testpersons',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/testpersons/:personId/edit',
    element: <TestPersonFormPage />,
    title: testPersonName,
    parent: '/partners/:partnerId/datasets/:datasetId/testpersons',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/:type',
    element: <RateListPage />,
    title: rateTypeTitle,
    parent: '/partners/:partnerId/datasets/:datasetId',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/:type/new',
    element: <RateFormPage />,
    title: 'Nieuw',
    parent: '/partners/:partnerId/datasets/:datasetId/:type',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/:type/:extraId/edit',
    element: <RateFormPage />,
    title: 'Bewerken',
    parent: '/partners/:partnerId/datasets/:datasetId/:type',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/headers',
    element: <MappingEditorPage />,
    title: 'Map',
    parent: '/partners/:partnerId/datasets/:datasetId',
  },
  {
    path: '/partners/:partnerId/datasets/:datasetId/:mapping/mappings',
    element: <ValueMappingEditorPage />,
    title: (params) => `Kenmerken ${params.mapping ?? ''}`.trim(),
    parent: '/partners/:partnerId/datasets/:datasetId/headers',
  },
  { path: '/types', element: <LabelListPage />, title: 'Labels', menu: { section: 'Partners', order: 3 } },
  { path: '/types/new', element: <LabelFormPage />, title: 'Nieuw label', parent: '/types' },
  {
    path: '/valuemapped',
    element: <ValueMappedListPage />,
    title: 'Waardemappings',
    menu: { section: 'Partners', order: 4 },
  },
  {
    path: '/valuemapped/:field',
    element: <ValueMappedFieldPage />,
    title: (params) => params.field ?? '',
    parent: '/valuemapped',
  },

  // ---- Campaigns, mailings, selections ----
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
    title: 'Doelgroep selecteren',
    menu: { section: 'Campagnes', order: 2 },
  },
  {
    path: '/selection-builder/:campaign',
    element: <SelectionBuilderPage />,
    title: campaignName('campaign'),
    parent: '/selection-builder',
  },
  {
    path: '/selection-builder/:campaign/:mailing',
    element: <SelectionBuilderPage />,
    title: mailingName('campaign', 'mailing'),
    parent: '/selection-builder/:campaign',
  },
  {
    path: '/selection-builder/:campaign/:mailing/:selection',
    element: <SelectionBuilderPage />,
    title: selectionName,
    parent: '/selection-builder/:campaign/:mailing',
  },
  {
    path: '/selection-builder/add-line',
    element: <LineEditorPage />,
    title: 'Regel toevoegen',
    parent: '/selection-builder',
  },
  {
    path: '/selection-builder/add-line/:type',
    element: <LineEditorPage />,
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
    path: '/settings',
    element: <SettingsPage />,
    title: 'Instellingen',
    menu: { section: 'Campagnes', order: 8 },
  },
  { path: '/settings/testperson', element: <TestPersonPage />, title: 'Testpersoon', parent: '/settings' },

  // ---- Users (the sidebar section is for administrators only, web/shell/nav.ts) ----
  {
    path: '/users',
    element: <UserListPage />,
    title: 'Gebruikers',
    menu: { section: 'Gebruikers', order: 1 },
  },
  { path: '/users/new', element: <UserFormPage />, title: 'Nieuwe gebruiker', parent: '/users' },
  { path: '/users/edit/:userId', element: <UserFormPage />, title: userName, parent: '/users' },

  // ---- Uploads, blacklists, DNS check ----
  // /upload/{partnerId?}/{datasetId?} and /deleteall/...: one route per depth, named crumbs.
  {
    path: '/upload',
    element: <UploadPage />,
    title: 'Upload CSV',
    menu: { section: 'Upload CSV', order: 1 },
  },
  { path: '/upload/:partnerId', element: <UploadPage />, title: partnerName, parent: '/upload' },
  {
    path: '/upload/:partnerId/:datasetId',
    element: <UploadPage />,
    title: datasetName,
    parent: '/upload/:partnerId',
  },
  {
    path: '/deleteall',
    element: <DeleteAllPage />,
    title: 'Verwijder uit bestand',
    menu: { section: 'Upload CSV', order: 2 },
  },
  { path: '/deleteall/:partnerId', element: <DeleteAllPage />, title: partnerName, parent: '/deleteall' },
  {
    path: '/deleteall/:partnerId/:datasetId',
    element: <DeleteAllPage />,
    title: datasetName,
    parent: '/deleteall/:partnerId',
  },
  {
    path: '/blacklist/upload',
    element: <BlacklistUploadPage />,
    title: 'Blacklist uploaden',
    parent: '/blacklist',
    menu: { section: 'Upload CSV', order: 3 },
  },
  {
    path: '/blacklist',
    element: <BlacklistPage />,
    title: 'Blacklist',
    menu: { section: 'Upload CSV', order: 4 },
  },
  {
    path: '/blacklist/domain',
    element: <BlacklistDomainListPage />,
    title: 'Domein blacklist',
    parent: '/blacklist',
    menu: { section: 'Upload CSV', order: 5 },
  },
  {
    path: '/dns-check',
    element: <DnsCheckPage />,
    title: 'DNS Check',
    menu: { section: 'Upload CSV', order: 6 },
  },

  // ---- Verrijking (spec 001 §2 sidebar) ----
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
