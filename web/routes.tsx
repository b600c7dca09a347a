import type { ReactElement } from 'react';
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
const DnsCheckPage = lazyScreen(() => import('./features/dnscheck/dns-check-page'), 'DnsCheckPage');
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
  () => import('./features/exportcolumns/export-column-form'),
  'ExportColumnFormPage',
);
const ExportColumnListPage = lazyScreen(
  () => import('./features/exportcolumns/export-column-list'),
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
  () => import('./features/interesttypes/interest-type-form'),
  'InterestTypeFormPage',
);
const InterestTypeListPage = lazyScreen(
  () => import('./features/interesttypes/interest-type-list'),
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

/** Every screen's route; a feature adds its screens here. Unknown paths show the 404 page. */
export const appRoutes: { path: string; element: ReactElement }[] = [
  { path: '/users', element: <UserListPage /> },
  { path: '/users/new', element: <UserFormPage /> },
  { path: '/users/edit/:userId', element: <UserFormPage /> },
  { path: '/tasks', element: <TaskListPage /> },
  { path: '/partners', element: <PartnerListPage /> },
  { path: '/partners/new', element: <PartnerFormPage /> },
  { path: '/partners/:id/edit', element: <PartnerFormPage /> },
  { path: '/partners/:id/contacts', element: <ContactListPage /> },
  { path: '/partners/:id/contacts/new', element: <ContactFormPage /> },
  { path: '/partners/:id/contacts/:contactId/edit', element: <ContactFormPage /> },
  { path: '/partners/:partnerId/blacklist', element: <PartnerBlacklistPage /> },
  { path: '/partners/:partnerId/datasets', element: <DatasetListPage /> },
  { path: '/partners/:partnerId/datasets/new', element: <DatasetFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/edit', element: <DatasetFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/testpersons', element: <TestPersonListPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/testpersons/new', element: <TestPersonFormPage /> },
  {
    path: '/partners/:partnerId/datasets/:datasetId/testpersons/:personId/edit',
    element: <TestPersonFormPage />,
  },
  { path: '/partners/:partnerId/datasets/:datasetId/:type', element: <RateListPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:type/new', element: <RateFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:type/:extraId/edit', element: <RateFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/headers', element: <MappingEditorPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:mapping/mappings', element: <ValueMappingEditorPage /> },
  { path: '/upload/:partnerId?/:datasetId?', element: <UploadPage /> },
  { path: '/deleteall/:partnerId?/:datasetId?', element: <DeleteAllPage /> },
  { path: '/blacklist', element: <BlacklistPage /> },
  { path: '/blacklist/domain', element: <BlacklistDomainListPage /> },
  { path: '/blacklist/upload', element: <BlacklistUploadPage /> },
  { path: '/dns-check', element: <DnsCheckPage /> },
  { path: '/valuemapped', element: <ValueMappedListPage /> },
  { path: '/valuemapped/:field', element: <ValueMappedFieldPage /> },
  { path: '/settings', element: <SettingsPage /> },
  { path: '/settings/testperson', element: <TestPersonPage /> },
  { path: '/interest-types', element: <InterestTypeListPage /> },
  { path: '/interest-types/new', element: <InterestTypeFormPage /> },
  { path: '/csv-columns', element: <ExportColumnListPage /> },
  { path: '/csv-columns/new', element: <ExportColumnFormPage /> },
  { path: '/types', element: <LabelListPage /> },
  { path: '/types/new', element: <LabelFormPage /> },
  { path: '/counts', element: <CountPage /> },
  { path: '/campaigns', element: <CampaignListPage /> },
  { path: '/campaigns/new', element: <CampaignFormPage /> },
  { path: '/campaigns/:id/edit', element: <CampaignFormPage /> },
  { path: '/campaigns/:campaignId/mailings/:mailingId/selections', element: <MailingSelectionsPage /> },
  { path: '/selection-builder/add-line/:type?', element: <LineEditorPage /> },
  { path: '/selection-builder/:campaign?/:mailing?/:selection?', element: <SelectionBuilderPage /> },
  { path: '/campaigns/:campaignId/mailings', element: <MailingListPage /> },
  { path: '/campaigns/:campaignId/mailings/new', element: <MailingFormPage /> },
  { path: '/campaigns/:campaignId/mailings/:mailingId/edit', element: <MailingFormPage /> },
  { path: '/campaigns/:campaignId/mailings/:mailingId/copy', element: <MailingCopyPage /> },
  { path: '/pressure', element: <PressurePage /> },
];
