import { z } from 'zod';
import { TaskSchema } from '../../../common/tasks';
import { http } from '../../lib/http';

export const tasksKey = ['tasks'] as const;
export const taskKey = (id: string) => ['tasks', id] as const;

export const listTasks = () => http.get('/tasks', z.array(TaskSchema));
export const getTask = (id: string) => http.get(`/tasks/${encodeURIComponent(id)}`, TaskSchema);
