import { createContext, useContext } from 'react';
import {
  createBrowserRouter,
  generatePath,
  Navigate,
  Outlet,
  type RouteObject,
  RouterProvider,
  useLocation,
  useMatches,
  useParams,
} from 'react-router';
import type { Account } from '../../common/auth';
import { appRoutes } from '../routes';
import type { AppRoute } from './crumbs';
import { Layout } from './layout';
import { ScreenBoundary } from './lazy-screen';
import { NotFoundPage } from './not-found';

interface LoggedInAppProps {
  account: Account;
  onLogout: () => void;
}

const ShellContext = createContext<LoggedInAppProps | null>(null);

/** The shell around every screen; each screen loads in the main area, with a spinner or a reload message. */
function ShellRoute() {
  const shell = useContext(ShellContext)!;
  const location = useLocation();
  const matches = useMatches();
  const screen = (matches.at(-1)?.handle as AppRoute | undefined)?.screen;
  return (
    <Layout account={shell.account} onLogout={shell.onLogout}>
      {/* Keyed by path (or the route's screen): after a failed chunk, navigating elsewhere tries again. */}
      <ScreenBoundary key={screen ?? location.pathname}>
        <Outlet />
      </ScreenBoundary>
    </Layout>
  );
}

/** A crumb-only route (a partner, a dataset): its path opens the screen its crumb links to. */
function RedirectTo({ pattern }: { pattern: string }) {
  const params = useParams();
  return <Navigate to={generatePath(pattern, params as Record<string, string>)} replace />;
}

/** The data router's routes, made from the route table; each carries its table entry as `handle`. */
function routerRoutes(routes: readonly AppRoute[]): RouteObject[] {
  return [
    {
      element: <ShellRoute />,
      children: [
        { path: '/', element: <Navigate to="/partners" replace /> },
        ...routes.map(
          (r): RouteObject => ({
            path: r.path,
            element: r.element ?? <RedirectTo pattern={r.to ?? '/'} />,
            handle: r,
          }),
        ),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

// One router for the page's life (React Router's data router; useBlocker and useMatches need it).
let router: ReturnType<typeof createBrowserRouter> | null = null;

/** The shell with every route, a chunk of its own that the login page never loads. */
export function LoggedInApp({ account, onLogout }: LoggedInAppProps) {
  router ??= createBrowserRouter(routerRoutes(appRoutes));
  return (
    <ShellContext.Provider value={{ account, onLogout }}>
      <RouterProvider router={router} />
    </ShellContext.Provider>
  );
}
