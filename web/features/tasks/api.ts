import { z } from 'zod';
import { TaskSchema } from '../../../common/tasks';
import { http } from '../../lib/http';
import { noteTask } from './task-events';

export const tasksKey = ['tasks'] as const;
export const taskKey = (id: string) => ['tasks', id] as const;

export const listTasks = async () => {
  const tasks = await http.get('/tasks', z.array(TaskSchema));
  for (const task of tasks) noteTask(task);
  return tasks;
};
export const getTask = async (id: string) => {
  const task = await http.get(`/tasks/${encodeURIComponent(id)}`, TaskSchema);
  noteTask(task);
  return task;
};
