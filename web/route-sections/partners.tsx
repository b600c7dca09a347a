import { contactName, datasetName, partnerName, rateTypeTitle, testPersonName } from '../shell/crumb-names';
import type { AppRoute } from '../shell/crumbs';
import { lazyScreen } from '../shell/lazy-screen';

const PartnerBlacklistPage = lazyScreen(
  () => import('../features/blacklists/partner-blacklist-page'),
  'PartnerBlacklistPage',
);
const DatasetFormPage = lazyScreen(() => import('../features/datasets/dataset-form'), 'DatasetFormPage');
const DatasetListPage = lazyScreen(() => import('../features/datasets/dataset-list'), 'DatasetListPage');
const RateFormPage = lazyScreen(() => import('../features/datasets/rate-form'), 'RateFormPage');
const RateListPage = lazyScreen(() => import('../features/datasets/rate-list'), 'RateListPage');
const TestPersonFormPage = lazyScreen(
  () => import('../features/datasets/testperson-form'),
  'TestPersonFormPage',
);
const TestPersonListPage = lazyScreen(
  () => import('../features/datasets/testperson-list'),
  'TestPersonListPage',
);
const MappingEditorPage = lazyScreen(() => import('../features/imports/mapping-editor'), 'MappingEditorPage');
const ValueMappingEditorPage = lazyScreen(
  () => import('../features/imports/value-mapping-editor'),
  'ValueMappingEditorPage',
);
const ValueMappedFieldPage = lazyScreen(
  () => import('../features/imports/valuemapped-pages'),
  'ValueMappedFieldPage',
);
const ValueMappedListPage = lazyScreen(
  () => import('../features/imports/valuemapped-pages'),
  'ValueMappedListPage',
);
const LabelFormPage = lazyScreen(() => import('../features/labels/label-form'), 'LabelFormPage');
const LabelListPage = lazyScreen(() => import('../features/labels/label-list'), 'LabelListPage');
const ContactFormPage = lazyScreen(() => import('../features/partners/contact-form'), 'ContactFormPage');
const ContactListPage = lazyScreen(() => import('../features/partners/contact-list'), 'ContactListPage');
const PartnerFormPage = lazyScreen(() => import('../features/partners/partner-form'), 'PartnerFormPage');
const PartnerListPage = lazyScreen(() => import('../features/partners/partner-list'), 'PartnerListPage');
const StatementsPage = lazyScreen(() => import('../features/statements/statement-list'), 'StatementsPage');

/** The partners, their contacts and datasets and every screen below a dataset; labels, value mappings (spec 000 §2) and the partners' statements. */
export const partnerRoutes: AppRoute[] = [
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
  // The partners' statements of a month; a statement opens in a drawer over the list (?statement=).
  {
    path: '/statements',
    element: <StatementsPage />,
    title: 'Afrekeningen',
    menu: { section: 'Partners', order: 5 },
  },
];
