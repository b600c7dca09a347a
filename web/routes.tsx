import type { ReactElement } from 'react';
import { ExportColumnFormPage } from './features/exportcolumns/export-column-form';
import { ExportColumnListPage } from './features/exportcolumns/export-column-list';
import { InterestTypeFormPage } from './features/interesttypes/interest-type-form';
import { InterestTypeListPage } from './features/interesttypes/interest-type-list';
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
  { path: '/settings', element: <SettingsPage /> },
  { path: '/settings/testperson', element: <TestPersonPage /> },
  { path: '/interest-types', element: <InterestTypeListPage /> },
  { path: '/interest-types/new', element: <InterestTypeFormPage /> },
  { path: '/csv-columns', element: <ExportColumnListPage /> },
  { path: '/csv-columns/new', element: <ExportColumnFormPage /> },
];
