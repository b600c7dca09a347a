import { Center, Loader } from '@mantine/core';
import { Navigate, Route, Routes } from 'react-router';
import { logout } from './features/auth/api';
import { LoginPage } from './features/auth/login-page';
import { appRoutes } from './routes';
import { useAccount, useSetAccount, useUnauthorizedLogout } from './shell/account';
import { Layout } from './shell/layout';
import { NotFoundPage } from './shell/not-found';

/** Loads the account first; shows the login while it is unknown, else the shell with the routes. */
export function App() {
  useUnauthorizedLogout();
  const account = useAccount();
  const setAccount = useSetAccount();

  if (account.isPending) {
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  }
  if (!account.data) return <LoginPage />;

  const handleLogout = () => {
    void logout().finally(() => setAccount(null));
  };

  return (
    <Layout account={account.data} onLogout={handleLogout}>
      <Routes>
        <Route path="/" element={<Navigate to="/partners" replace />} />
        {appRoutes.map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Layout>
  );
}
