import { userName } from '../shell/crumb-names';
import type { AppRoute } from '../shell/crumbs';
import { lazyScreen } from '../shell/lazy-screen';

const AuditLogPage = lazyScreen(() => import('../features/audit/audit-log'), 'AuditLogPage');
const UserFormPage = lazyScreen(() => import('../features/users/user-form'), 'UserFormPage');
const UserListPage = lazyScreen(() => import('../features/users/user-list'), 'UserListPage');

/** The user screens and the audit log (the sidebar section is for administrators only, web/shell/nav.ts). */
export const userRoutes: AppRoute[] = [
  {
    path: '/users',
    element: <UserListPage />,
    title: 'Gebruikers',
    menu: { section: 'Gebruikers', order: 1 },
  },
  { path: '/users/new', element: <UserFormPage />, title: 'Nieuwe gebruiker', parent: '/users' },
  { path: '/users/edit/:userId', element: <UserFormPage />, title: userName, parent: '/users' },
  {
    path: '/audit-log',
    element: <AuditLogPage />,
    title: 'Auditlog',
    menu: { section: 'Gebruikers', order: 2 },
  },
];
