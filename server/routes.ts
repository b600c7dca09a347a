import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { authRoutes } from './features/auth/auth.routes';
import { shellRoutes } from './features/shell/shell.routes';
import { taskRoutes } from './features/tasks/task.routes';
import { userRoutes } from './features/users/user.routes';

/** Every feature's routes, mounted under /api; a new feature adds its plugin here. */
export function apiRoutes(ctx: AppContext): FastifyPluginAsyncZod[] {
  return [authRoutes(ctx), userRoutes(ctx), taskRoutes(ctx), shellRoutes(ctx)];
}
