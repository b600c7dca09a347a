import type { ReactElement } from 'react';
import { CampaignFormPage } from './features/campaigns/campaign-form';
import { CampaignListPage } from './features/campaigns/campaign-list';
import { DatasetFormPage } from './features/datasets/dataset-form';
import { DatasetListPage } from './features/datasets/dataset-list';
import { RateFormPage } from './features/datasets/rate-form';
import { RateListPage } from './features/datasets/rate-list';
import { TestPersonFormPage } from './features/datasets/testperson-form';
import { TestPersonListPage } from './features/datasets/testperson-list';
import { ExportColumnFormPage } from './features/exportcolumns/export-column-form';
import { ExportColumnListPage } from './features/exportcolumns/export-column-list';
import { DeleteAllPage } from './features/imports/deleteall-page';
import { MappingEditorPage } from './features/imports/mapping-editor';
import { UploadPage } from './features/imports/upload-page';
import { ValueMappingEditorPage } from './features/imports/value-mapping-editor';
import { ValueMappedFieldPage, ValueMappedListPage } from './features/imports/valuemapped-pages';
import { InterestTypeFormPage } from './features/interesttypes/interest-type-form';
import { InterestTypeListPage } from './features/interesttypes/interest-type-list';
import { LabelFormPage } from './features/labels/label-form';
import { LabelListPage } from './features/labels/label-list';
import { ContactFormPage } from './features/partners/contact-form';
import { ContactListPage } from './features/partners/contact-list';
import { PartnerFormPage } from './features/partners/partner-form';
import { PartnerListPage } from './features/partners/partner-list';
import { SettingsPage } from './features/settings/settings-form';
import { TestPersonPage } from './features/settings/test-person-form';
import { TaskListPage } from './features/tasks/task-list';
import { UserFormPage } from './features/users/user-form';
import { UserListPage } from './features/users/user-list';

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
  { path: '/partners/:partnerId/datasets', element: <DatasetListPage /> },
  { path: '/partners/:partnerId/datasets/new', element: <DatasetFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/edit', element: <DatasetFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/testpersons', element: <TestPersonListPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/testpersons/new', element: <TestPersonFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/testpersons/:personId/edit', element: <TestPersonFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:type', element: <RateListPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:type/new', element: <RateFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:type/:extraId/edit', element: <RateFormPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/headers', element: <MappingEditorPage /> },
  { path: '/partners/:partnerId/datasets/:datasetId/:mapping/mappings', element: <ValueMappingEditorPage /> },
  { path: '/upload/:partnerId?/:datasetId?', element: <UploadPage /> },
  { path: '/deleteall/:partnerId?/:datasetId?', element: <DeleteAllPage /> },
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
  { path: '/campaigns', element: <CampaignListPage /> },
  { path: '/campaigns/new', element: <CampaignFormPage /> },
  { path: '/campaigns/:id/edit', element: <CampaignFormPage /> },
];
