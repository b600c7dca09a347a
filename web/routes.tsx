import type { ReactElement } from 'react';
import { TaskListPage } from './features/tasks/task-list';
import { UserFormPage } from './features/users/user-form';
import { UserListPage } from './features/users/user-list';

/** Every screen's route; a feature adds its screens here. Unknown paths show the 404 page. */
export const appRoutes: { path: string; element: ReactElement }[] = [
  { path: '/users', element: <UserListPage /> },
  { path: '/users/new', element: <UserFormPage /> },
  { path: '/users/edit/:userId', element: <UserFormPage /> },
  { path: '/tasks', element: <TaskListPage /> },
];
