import { z } from 'zod';
import { TaskSchema } from '../../../common/tasks';
import { http } from '../../lib/http';
import { noteTask } from './task-events';

/** The TanStack Query key of the task list. */
export const tasksKey = ['tasks'] as const;
/** The TanStack Query key of one task. */
export const taskKey = (id: string) => ['tasks', id] as const;

/** Fetches the tasks (GET /api/tasks) and notes each one for the task listeners, such as the sidebar. */
export const listTasks = async () => {
  const tasks = await http.get('/tasks', z.array(TaskSchema));
  for (const task of tasks) noteTask(task);
  return tasks;
};
/** Fetches one task (GET /api/tasks/:id) and notes it for the task listeners, such as the sidebar. */
export const getTask = async (id: string) => {
  const task = await http.get(`/tasks/${encodeURIComponent(id)}`, TaskSchema);
  noteTask(task);
  return task;
};
