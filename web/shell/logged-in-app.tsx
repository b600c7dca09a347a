import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { Account } from '../../common/auth';
import { appRoutes } from '../routes';
import { Layout } from './layout';
import { ScreenBoundary } from './lazy-screen';
import { NotFoundPage } from './not-found';

interface LoggedInAppProps {
  account: Account;
  onLogout: () => void;
}

/**
 * The shell with every route, a chunk of its own that the login page never loads; each screen
 * loads in the shell's main area, with a spinner or a reload message.
 */
export function LoggedInApp({ account, onLogout }: LoggedInAppProps) {
  const location = useLocation();
  return (
    <Layout account={account} onLogout={onLogout}>
      {/* Keyed by path: after a failed chunk, navigating elsewhere tries again. */}
      <ScreenBoundary key={location.pathname}>
        <Routes>
          <Route path="/" element={<Navigate to="/partners" replace />} />
          {appRoutes.map((r) => (
            <Route key={r.path} path={r.path} element={r.element} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </ScreenBoundary>
    </Layout>
  );
}
